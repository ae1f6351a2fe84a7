import Foundation
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

@Suite("When each source is asked next: how often it posts, what it says, what it asked")
struct RefreshScheduleTests {
  let server: LoopbackServer
  let directory = TemporaryDirectory()
  let clock = TestDate()

  init() throws {
    server = try LoopbackServer()
  }

  static let hour: Double = 3_600

  /// An RSS document of `count` items, the newest `newestAgo` seconds before `now`, one every
  /// `every` seconds before it.
  static func feed(every: Double, count: Int = 10, newestAgo: Double = 0, now: Date) -> Data {
    let format = DateFormatter()
    format.locale = Locale(identifier: "en_US_POSIX")
    format.timeZone = TimeZone(identifier: "GMT")
    format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    let items = (0..<count).map { index in
      let date = now.addingTimeInterval(-newestAgo - Double(index) * every)
      return "<item><title>Post \(index)</title><link>https://example.com/\(index)</link>"
        + "<pubDate>\(format.string(from: date))</pubDate></item>"
    }
    return Data(
      ("<rss version=\"2.0\"><channel><title>Blog</title>" + items.joined() + "</channel></rss>")
        .utf8)
  }

  func route(_ path: String, _ body: Data, headers: [String: String] = [:]) {
    server.route(path, LoopbackServer.Response(headers: headers, body: body))
  }

  func source(_ name: String, _ path: String, ttl: Int? = nil) -> FeedSource {
    var source = FeedSource(
      name: name, url: server.baseURL.appendingPathComponent(path),
      ttl: .seconds(ttl ?? 900), adapter: SyndicationAdapter())
    source.ttlIsExplicit = ttl != nil
    return source
  }

  func service(_ bounds: RefreshBounds = RefreshBounds()) -> FeedService {
    let clock = clock
    var service = FeedService(
      transport: HTTPTransport(
        client: URLSessionHTTPClient(), retryPolicy: RetryPolicy(delay: .zero), timing: .test()),
      cache: EncryptedStore.testing(in: directory.url.appendingPathComponent("cache"), key: 5),
      articles: nil, now: { clock.now }, timeZone: .gmt,
      deadline: Deadline(
        .seconds(30), variable: "NEWS_SOURCE_DEADLINE",
        sleep: { try await TestClock().sleep(for: $0) }))
    service.refreshBounds = bounds
    return service
  }

  @Test(
    "a posting rate is the mean interval of the last ten items, the gap since the newest one of them",
    arguments: [
      // Hourly, fetched as the newest came out: nine hours over ten intervals.
      ([0.0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 0.9 * hour),
      // Hourly, fetched an hour after the newest: ten hours over ten.
      ([1.0, 2, 3, 4, 5, 6, 7, 8, 9, 10], hour),
      // Only the ten newest count (the oldest item, a year back, changes nothing).
      ([0.0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 8_760], 0.9 * hour),
      // Silent for a month after posting hourly: asked less and less often.
      ([720.0, 721, 722], 722 * hour / 3),
      // Dated in the future: as if posted when fetched.
      ([-5.0, 0], 0),
      ([], nil),
    ] as [([Double], Double?)])
  func postingRate(hoursAgo: [Double], expected: Double?) {
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let dates = hoursAgo.map { now.addingTimeInterval(-$0 * Self.hour) }
    let rate = PostingRate.interval(of: dates, at: now)
    #expect(rate.map { ($0 * 1000).rounded() } == expected.map { ($0 * 1000).rounded() })
  }

  @Test(
    "the bounds: a ttl wins; a rate is kept within the minimum and maximum; a longer hint wins",
    arguments: [
      // ttl, rate, hint, minimum, maximum → seconds, reason
      (1_800, 9 * hour, nil, nil, 86_400.0, 1_800.0, NextFetch.Reason.ttl),
      (nil, 9 * hour, nil, nil, 86_400, 9 * hour, .posts(every: 9 * hour)),
      (nil, 60, nil, nil, 86_400, 900, .posts(every: 60)),
      (nil, 60, nil, 300, 86_400, 300, .posts(every: 60)),
      (nil, 90 * 86_400, nil, nil, 86_400, 86_400, .posts(every: 90 * 86_400)),
      (nil, 90 * 86_400, nil, nil, 7 * 86_400, 7 * 86_400, .posts(every: 90 * 86_400)),
      (nil, hour, 7_200, nil, 86_400, 7_200, .hint(.cacheControl)),
      (nil, 9 * hour, 7_200, nil, 86_400, 9 * hour, .posts(every: 9 * hour)),
      // A hint of a year is honoured for a day.
      (nil, nil, 31_536_000, nil, 86_400, 86_400, .hint(.cacheControl)),
      (nil, nil, nil, nil, 86_400, 900, .noDates),
    ] as [(Int?, Double?, Double?, Double?, Double, Double, NextFetch.Reason)])
  func bounds(
    ttl: Int?, rate: Double?, hint: Double?, minimum: Double?, maximum: Double,
    seconds: Double, reason: NextFetch.Reason
  ) {
    var entry = FeedCacheEntry(
      url: "https://e/feed", items: [], fetchedAt: Date(), etag: nil, lastModified: nil)
    entry.postsEvery = rate
    entry.hint = hint.map { FreshnessHint(seconds: $0, kind: .cacheControl) }
    let bounds = RefreshBounds(minimum: minimum, maximum: maximum)
    let lifetime = bounds.lifetime(source("blog", "blog.xml", ttl: ttl), entry)
    #expect(lifetime.seconds == seconds)
    #expect(lifetime.reason == reason)
  }

  @Test("a feed posting every six hours is asked again hours later, not every 15 minutes")
  func asksWhenDue() async throws {
    route("/slow.xml", Self.feed(every: 6 * Self.hour, newestAgo: Self.hour, now: clock.now))
    let sources = [source("slow", "slow.xml")]
    _ = await service().fetch(sources)
    let next = try #require(service().lastFetches(sources).first?.next)
    // Ten intervals since the tenth newest: 1 h + 9 × 6 h.
    #expect(next.reason == .posts(every: 5.5 * Self.hour))
    #expect(next.at == clock.now.addingTimeInterval(5.5 * Self.hour))
    // Every 15 minutes for five hours and a quarter: a sync each time, not one request.
    for _ in 0..<21 {
      clock.advance(by: 900)
      _ = await service().fetch(sources)
    }
    #expect(server.requests(to: "/slow.xml").count == 1)
    clock.advance(by: 900)
    let due = await service().fetch(sources)
    #expect(due.map(\.status) == [.fresh])
    #expect(server.requests(to: "/slow.xml").count == 2)
    // A refresh asks whatever the rate.
    _ = await service().fetch(sources, refresh: true)
    #expect(server.requests(to: "/slow.xml").count == 3)
  }

  @Test("a silent feed is asked once a day (NEWS_REFRESH_MAX), a busy one at the minimum")
  func boundsApplied() async throws {
    route("/silent.xml", Self.feed(every: 86_400, newestAgo: 200 * 86_400, now: clock.now))
    route("/busy.xml", Self.feed(every: 60, now: clock.now))
    let sources = [source("silent", "silent.xml"), source("busy", "busy.xml")]
    let bounds = RefreshBounds(minimum: 600, maximum: 12 * Self.hour)
    _ = await service(bounds).fetch(sources)
    let next = service(bounds).lastFetches(sources).map(\.next)
    #expect(next.map(\.interval) == [12 * Self.hour, 600])
    #expect(next.map(\.at) == [clock.now.addingTimeInterval(12 * Self.hour), clock.now + 600])
    clock.advance(by: 601)
    _ = await service(bounds).fetch(sources)
    #expect(server.requests(to: "/silent.xml").count == 1)
    #expect(server.requests(to: "/busy.xml").count == 2)
  }

  @Test("Cache-Control longer than the posting rate decides, and is named")
  func cacheControlNamed() async throws {
    route(
      "/cached.xml", Self.feed(every: 600, now: clock.now),
      headers: ["Cache-Control": "max-age=2400"])
    let sources = [source("cached", "cached.xml")]
    _ = await service().fetch(sources)
    let next = try #require(service().lastFetches(sources).first?.next)
    #expect(next.reason == .hint(.cacheControl))
    #expect(next.interval == 2_400)
    #expect(next.postsEvery == 540)
  }

  @Test("a 429 holds every source of its host for the runs to come; a 503 only its own source")
  func tooManyRequestsHoldsTheHost() async throws {
    server.route(
      "/busy.xml", LoopbackServer.Response(status: 429, headers: ["Retry-After": "3600"]))
    server.route(
      "/down.xml", LoopbackServer.Response(status: 503, headers: ["Retry-After": "3600"]))
    route("/other.xml", Self.feed(every: 60, now: clock.now))
    let throttled = [source("busy", "busy.xml"), source("other", "other.xml")]
    _ = await service().fetch(throttled)
    #expect(server.requests(to: "/busy.xml").count == 1)
    let other = server.requests(to: "/other.xml").count
    // Ten minutes on, even a refresh asks neither: the host said to wait an hour.
    clock.advance(by: 600)
    let held = await service().fetch(throttled, refresh: true)
    #expect(server.requests(to: "/busy.xml").count == 1)
    #expect(server.requests(to: "/other.xml").count == other)
    #expect(held.allSatisfy { $0.error?.contains("Retry-After") == true })
    let next = service().lastFetches(throttled).map(\.next)
    #expect(next.map(\.reason) == [.retryAfter, .retryAfter])
    #expect(next.map(\.at) == Array(repeating: clock.now.addingTimeInterval(3_000), count: 2))
    // Past the hour both are asked again.
    route("/busy.xml", Self.feed(every: 60, now: clock.now))
    clock.advance(by: 3_600)
    _ = await service().fetch(throttled, refresh: true)
    #expect(server.requests(to: "/busy.xml").count == 2)
    #expect(server.requests(to: "/other.xml").count == other + 1)
    // A 503 is the feed's own trouble: its host's other feeds are asked.
    let unavailable = [source("down", "down.xml"), source("other", "other.xml")]
    _ = await service().fetch(unavailable, refresh: true)
    clock.advance(by: 600)
    _ = await service().fetch(unavailable, refresh: true)
    #expect(server.requests(to: "/down.xml").count == 1)
    #expect(server.requests(to: "/other.xml").count == other + 3)
  }

  @Test("a run's sources on a host that answered 429 are not asked in that run")
  func hostPausedWithinRun() {
    let pauses = HostPauses()
    let now = Date(timeIntervalSince1970: 1_000)
    let feed = URL(string: "https://Example.com/a.xml")!
    #expect(pauses.until(feed, now: now) == nil)
    pauses.pause(feed, until: now + 60)
    pauses.pause(URL(string: "https://example.com/other")!, until: now + 30)
    #expect(pauses.until(URL(string: "https://example.com/b.xml")!, now: now) == now + 60)
    #expect(pauses.until(URL(string: "https://example.org/b.xml")!, now: now) == nil)
    #expect(pauses.until(feed, now: now + 61) == nil)
    #expect(pauses.all == ["//example.com": now + 60])
  }

  @Test(
    "NEWS_REFRESH_MIN and NEWS_REFRESH_MAX are whole seconds (15m, 2d), the first not above the second",
    arguments: [
      (["NEWS_REFRESH_MIN": "300"], RefreshBounds(minimum: 300, maximum: 86_400)),
      (["NEWS_REFRESH_MAX": "604800"], RefreshBounds(minimum: nil, maximum: 604_800)),
      ([:], RefreshBounds()),
      (["NEWS_REFRESH_MIN": "7200", "NEWS_REFRESH_MAX": "3600"], nil),
      (["NEWS_REFRESH_MIN": "15m"], RefreshBounds(minimum: 900, maximum: 86_400)),
      (["NEWS_REFRESH_MAX": "7d"], RefreshBounds(minimum: nil, maximum: 604_800)),
      (["NEWS_REFRESH_MIN": "0.5"], nil), (["NEWS_REFRESH_MIN": "soon"], nil),
      (["NEWS_REFRESH_MAX": "0"], nil),
    ] as [([String: String], RefreshBounds?)])
  func variables(environment: [String: String], expected: RefreshBounds?) {
    let read = try? Configuration(
      environment: ["HOME": directory.url.path, "NEWS_HOME": directory.path("home")]
        .merging(environment) { $1 })
    #expect(read?.refreshBounds == expected)
  }
}
