import Foundation
import Synchronization
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

@Suite("Feed service against the loopback server")
struct FeedServiceTests {
  let server: LoopbackServer
  let directory = TemporaryDirectory()
  let clock = TestDate()

  init() throws {
    server = try LoopbackServer()
    server.route("/a.json", .fixture("source_a.readme-sample.json"))
    server.route("/b.json", .fixture("source_b.readme-sample.json"))
    server.route("/c.json", .fixture("source_c.readme-sample.json"))
  }

  func configuration(_ extra: [String: String] = [:]) throws -> Configuration {
    try Configuration(
      environment: [
        "HOME": directory.url.path, "NEWS_HOME": directory.path("home"),
        "NEWS_FEED_A_URL": server.baseURL.absoluteString + "/a.json",
        "NEWS_FEED_B_URL": server.baseURL.absoluteString + "/b.json",
        "NEWS_FEED_C_URL": server.baseURL.absoluteString + "/c.json",
      ].merging(extra) { $1 })
  }

  /// The sources `configuration` and its `config.json` declare.
  func sources(_ configuration: Configuration) throws -> [FeedSource] {
    FeedRegistry.sources(configuration, file: try FeedConfigFile.load(configuration))
  }

  /// Where the items are kept as articles.
  func articleStore() -> ArticleStore {
    let clock = clock
    return ArticleStore(
      store: EncryptedStore.testing(in: directory.url.appendingPathComponent("data"), key: 5),
      now: { clock.now })
  }

  func service() -> FeedService {
    let key = StoreKey.testing(5)
    let clock = clock
    return FeedService(
      transport: HTTPTransport(
        client: URLSessionHTTPClient(), retryPolicy: RetryPolicy(delay: .zero), timing: .test()),
      cache: EncryptedStore(
        directory: directory.url.appendingPathComponent("cache"), key: key,
        randomBytes: SecureRandom.bytes),
      articles: articleStore(),
      now: { clock.now }, timeZone: .gmt,
      // Deadlines never pass here: these tests are about answers, not time.
      deadline: Deadline(
        .seconds(30), variable: "NEWS_SOURCE_DEADLINE",
        sleep: { try await TestClock().sleep(for: $0) }))
  }

  @Test("three sources are fetched at the same time")
  func parallel() async throws {
    // The barrier proves the three requests were in flight together: fetched one after the
    // other, the first would wait at it in vain. No bound on elapsed time (it would measure the
    // machine's load).
    let barrier = ArrivalBarrier(count: 3)
    for name in ["a", "b", "c"] {
      server.route("/\(name).json") { _ in
        barrier.arrive()
        return .fixture("source_\(name).readme-sample.json")
      }
    }
    let sources = try sources(try configuration())
    let reports = await service().fetch(sources)
    #expect(reports.map(\.status) == [.fresh, .fresh, .fresh])
    #expect(reports.map(\.name) == ["a", "b", "c"])
    #expect(barrier.metTogether)
  }

  @Test("each source has its own TTL: A expires while B and C do not")
  func ttl() async throws {
    let sources = try sources(try configuration())
    let service = service()
    _ = await service.fetch(sources)
    #expect(server.requests.count == 3)
    clock.advance(by: 6 * 60)
    let reports = await service.fetch(sources)
    #expect(reports.map(\.status) == [.fresh, .cached, .cached])
    #expect(server.requests(to: "/a.json").count == 2)
    #expect(server.requests(to: "/b.json").count == 1)
    #expect(reports[1].items.map(\.title) == ["WOW"])
    #expect(reports[1].attempts == 0)
    clock.advance(by: 30 * 60)
    let later = await service.fetch(sources)
    #expect(later.map(\.status) == [.fresh, .fresh, .cached])
  }

  @Test("every fetched item is kept as an article of its source, with its link's id")
  func itemsAreArticles() async throws {
    server.route("/rss.xml", .fixture("feeds/rss20_1.xml"))
    let feedFile = directory.url.appendingPathComponent("config.json")
    try Data(
      #"{"sources":[{"name":"blog","url":"\#(server.baseURL.absoluteString)/rss.xml"}]}"#.utf8
    ).write(to: feedFile)
    let sources = try sources(try configuration(["NEWS_CONFIG": feedFile.path]))
    let reports = await service().fetch(sources)
    #expect(reports.allSatisfy { $0.notKept == nil })
    let store = articleStore()
    #expect(try store.articles(provider: "a").map(\.id) == reports[0].items.map(\.id))
    let blog = try store.articles(provider: "blog")
    let item = try #require(reports[3].items.first)
    let article = try #require(blog.first { $0.id == item.id })
    #expect(item.url != nil)
    #expect(article.id == ArticleID.derive(fromURL: item.url!))
    #expect(article.url == item.url && article.provider == "blog")
    #expect(article.description == item.description)
  }

  @Test("a cache entry written before items were articles is kept once, when next read")
  func oldCacheEntriesAreKept() async throws {
    let sources = try sources(try configuration()).filter { $0.name == "a" }
    _ = await service().fetch(sources)
    // What an older version left: the cache entry without `kept`, and no article file.
    let data = directory.url.appendingPathComponent("data")
    try FileManager.default.removeItem(at: data)
    let cache = EncryptedStore.testing(in: directory.url.appendingPathComponent("cache"), key: 5)
    // Written as JSON, a file a source, as versions before the compact format and the
    // bundles did.
    var entry = try FeedCacheEntry.decode(try #require(try FeedCache(store: cache).entry(of: "a")))
    entry.kept = nil
    for name in try FileManager.default.contentsOfDirectory(atPath: cache.directory.path)
    where name.hasSuffix(".enc") && name != "keycheck.enc" {
      try FileManager.default.removeItem(at: cache.directory.appendingPathComponent(name))
    }
    try cache.write(entry, name: "feed-a")
    let reports = await service().fetch(sources)
    #expect(reports[0].status == .cached)
    #expect(try articleStore().articles(provider: "a").count == 1)
    // Folded into a bundle, and the file of the earlier layout gone.
    #expect(try cache.readBytes("feed-a") == nil)
    let rewritten = try #require(try FeedCache(store: cache).entry(of: "a"))
    #expect(rewritten.starts(with: Array(FeedCacheEntry.magic.utf8)))
    #expect(try FeedCacheEntry.decode(rewritten).kept == true)
    #expect(try FeedCacheEntry.decode(rewritten).items == entry.items)
    #expect(server.requests(to: "/a.json").count == 1)
  }

  @Test("NEWS_FEED_<NAME>_TTL overrides the default")
  func ttlOverride() throws {
    let sources = try sources(try configuration(["NEWS_FEED_C_TTL": "10"]))
    #expect(sources.map(\.ttl) == [.seconds(300), .seconds(1800), .seconds(10)])
    #expect(throws: ConfigurationError.self) {
      try configuration(["NEWS_FEED_A_TTL": "soon"])
    }
    // A source the file declares gets its variable too, read with the rest at start-up.
    #expect(throws: ConfigurationError.self) {
      try configuration(["NEWS_FEED_MY_SOURCE_TTL": "true"])
    }
    // A name's '-' is '_' in its variable; without any variable, no source has one.
    let named = try configuration(["NEWS_FEED_MY_SOURCE_TTL": "42"])
    #expect(named.feedTTL("my-source") == .seconds(42) && named.feedTTL("my") == nil)
    #expect(try configuration().feedTTL("my-source") == nil)
  }

  @Test("--refresh fetches sources within their TTL")
  func refresh() async throws {
    let sources = try sources(try configuration())
    let service = service()
    _ = await service.fetch(sources)
    let reports = await service.fetch(sources, refresh: true)
    #expect(reports.map(\.status) == [.fresh, .fresh, .fresh])
    #expect(server.requests.count == 6)
  }

  @Test("ETag and Last-Modified are sent back, and 304 counts as fresh")
  func notModified() async throws {
    server.route("/a.json") { request in
      if request.headers["if-none-match"] == "\"v1\"" {
        return LoopbackServer.Response(status: 304)
      }
      return .json(
        Fixtures.text("source_a.readme-sample.json"),
        headers: ["ETag": "\"v1\"", "Last-Modified": "Wed, 21 Oct 2015 07:28:00 GMT"])
    }
    let sources = try sources(try configuration()).filter { $0.name == "a" }
    let service = service()
    _ = await service.fetch(sources)
    clock.advance(by: 600)
    let reports = await service.fetch(sources)
    #expect(reports[0].status == .fresh)
    #expect(reports[0].items.count == 1)
    #expect(reports[0].fetchedAt == clock.now)
    let second = try #require(server.requests(to: "/a.json").last)
    #expect(second.headers["if-modified-since"] == "Wed, 21 Oct 2015 07:28:00 GMT")
  }

  @Test("a 304 writes the time only: the entry and the articles stay; once a day, in full")
  func notModifiedWritesTimeOnly() async throws {
    server.route("/a.json") { request in
      if request.headers["if-none-match"] == "\"v1\"" {
        return LoopbackServer.Response(status: 304)
      }
      return .json(Fixtures.text("source_a.readme-sample.json"), headers: ["ETag": "\"v1\""])
    }
    let sources = try sources(try configuration()).filter { $0.name == "a" }
    let service = service()
    _ = await service.fetch(sources)
    let cache = directory.url.appendingPathComponent("cache")
    let data = directory.url.appendingPathComponent("data")
    func files(_ url: URL) throws -> [String: Data] {
      var files: [String: Data] = [:]
      for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
        files[name] = try Data(contentsOf: url.appendingPathComponent(name))
      }
      return files
    }
    let (cacheBefore, dataBefore) = (try files(cache), try files(data))
    clock.advance(by: 600)
    let revalidated = await service.fetch(sources, refresh: true)
    #expect(revalidated[0].revalidated)
    #expect(revalidated[0].fetchedAt == clock.now)
    #expect(revalidated[0].items.count == 1)
    var cacheAfter = try files(cache)
    #expect(cacheAfter.removeValue(forKey: "revalidated.enc") != nil)
    #expect(cacheAfter == cacheBefore)
    #expect(try files(data) == dataBefore)
    // The time counts: within the TTL the next list is answered from the cache, no request.
    let requests = server.requests.count
    let cached = await self.service().fetch(sources)
    #expect(cached[0].status == .cached)
    #expect(cached[0].fetchedAt == clock.now)
    #expect(server.requests.count == requests)
    // A day after the entry was written, an unchanged answer writes it (and its articles' last
    // seen, for retention) in full.
    clock.advance(by: 86_400)
    let daily = await service.fetch(sources, refresh: true)
    #expect(!daily[0].revalidated)
    #expect(daily[0].status == .fresh)
    #expect(try files(cache)["feeds.enc"] != cacheBefore["feeds.enc"])
  }

  @Test("a failing source never hides the others; its cached items come back stale")
  func partialFailure() async throws {
    let sources = try sources(try configuration())
    let service = service()
    server.route("/b.json", .json("{}", status: 500))
    let first = await service.fetch(sources)
    #expect(first.map(\.status) == [.fresh, .failed, .fresh])
    #expect(first[1].error?.contains("HTTP 500") == true)
    #expect(first[1].attempts == 4)
    server.route("/b.json", .fixture("source_b.readme-sample.json"))
    _ = await service.fetch(sources, refresh: true)
    server.route("/b.json", .json(#"{"metadata":5}"#))
    let stale = await service.fetch(sources, refresh: true)
    #expect(stale.map(\.status) == [.fresh, .stale, .fresh])
    #expect(stale[1].items.map(\.title) == ["WOW"])
    #expect(stale[1].error?.contains("source b") == true)
  }

  @Test("offline uses the cache whatever its age, and never the network")
  func offline() async throws {
    let sources = try sources(try configuration())
    let service = service()
    _ = await service.fetch(Array(sources.prefix(2)))
    clock.advance(by: 86_400)
    let reports = await service.fetch(sources, offline: true)
    #expect(reports.map(\.status) == [.cached, .cached, .failed])
    #expect(server.requests.count == 2)
  }

  /// Adding a source in code: an adapter and one line in the registry.
  struct PipeSeparatedAdapter: FeedAdapter {
    func items(from data: Data, source: String) throws -> [FeedItem] {
      String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
        let fields = line.split(separator: "|").map(String.init)
        return FeedItem(
          feed: source, title: fields[0], description: fields.count > 1 ? fields[1] : nil,
          imageURL: nil)
      }
    }
  }

  /// An adapter whose reading holds until released: a parse that cannot stop. Fifteen minutes
  /// bound a broken run (a fetch that waits for the parse, failed by the test's ten-minute
  /// limit), not a correct one: under the sanitizer on two cores, the test may resume long
  /// after the deadline passed (a 20 s bound was once reached there).
  final class HeldAdapter: FeedAdapter, @unchecked Sendable {
    // @unchecked: the flags are read and written under `condition`.
    let condition = NSCondition()
    var entered = false
    var released = false
    var finished = false

    func items(from data: Data, source: String) throws -> [FeedItem] {
      condition.lock()
      entered = true
      condition.broadcast()
      let end = Date().addingTimeInterval(15 * 60)
      while !released, condition.wait(until: end) {}
      finished = true
      condition.unlock()
      return []
    }

    /// Waits, on a thread of its own, until the reading has begun.
    func untilEntered() async {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        Thread.detachNewThread {
          self.condition.lock()
          while !self.entered { self.condition.wait() }
          self.condition.unlock()
          continuation.resume()
        }
      }
    }

    /// Whether the reading is still held; then lets it go.
    func release() -> Bool {
      condition.lock()
      defer { condition.unlock() }
      let held = entered && !finished
      released = true
      condition.broadcast()
      return held
    }
  }

  @Test(
    "a source's deadline ends its reading too: the fetch goes on without waiting for the parse",
    .timeLimit(.minutes(10)))
  func deadlineEndsParsing() async throws {
    server.route("/held.txt", LoopbackServer.Response(body: Data("x".utf8)))
    let adapter = HeldAdapter()
    let key = StoreKey.testing(5)
    let clock = clock
    // The deadline passes once the reading has begun.
    let service = FeedService(
      transport: HTTPTransport(
        client: URLSessionHTTPClient(), retryPolicy: RetryPolicy(delay: .zero), timing: .test()),
      cache: EncryptedStore(
        directory: directory.url.appendingPathComponent("cache"), key: key,
        randomBytes: SecureRandom.bytes),
      articles: articleStore(), now: { clock.now }, timeZone: .gmt,
      deadline: Deadline(
        .seconds(5), variable: "NEWS_SOURCE_DEADLINE", sleep: { _ in await adapter.untilEntered() })
    )
    let source = FeedSource(
      name: "held", url: server.baseURL.appendingPathComponent("held.txt"), ttl: .seconds(60),
      adapter: adapter)
    let reports = await service.fetch([source])
    // Back before the reading ended: before, the fetch waited for the parse, deadline or not.
    #expect(adapter.release(), "the fetch waited for the reading")
    #expect(reports.map(\.status) == [.failed])
    let said = reports.first?.error ?? ""
    #expect(said.contains("NEWS_SOURCE_DEADLINE"), "\(said)")
  }

  @Test("a fourth source takes an adapter and one line")
  func fourthSource() async throws {
    server.route("/d.txt", LoopbackServer.Response(body: Data("Fourth|it works\nFifth".utf8)))
    let configuration = try configuration()
    let sources = FeedRegistry.sources(
      configuration, file: nil,
      builtIn: FeedRegistry.builtIn(configuration) + [
        FeedSource(
          name: "d", url: server.baseURL.appendingPathComponent("d.txt"), ttl: .seconds(60),
          adapter: PipeSeparatedAdapter())
      ])
    let reports = await service().fetch(sources)
    #expect(reports.map(\.name) == ["a", "b", "c", "d"])
    #expect(reports[3].items.map(\.title) == ["Fourth", "Fifth"])
    #expect(reports[3].items[0].description == "it works")
  }

  @Test("a source declared in config.json, and a built-in one changed there")
  func configSource() async throws {
    let configDirectory = try configuration().paths.configDirectory
    try FileManager.default.createDirectory(at: configDirectory, withIntermediateDirectories: true)
    let config = """
      {"sources": [
        {"name": "d", "url": "\(server.baseURL.absoluteString)/d.json", "ttl": 120,
         "mapping": {"items": "data.list", "title": "headline", "subtitle": ["kicker", "summary"],
                     "imageUrl": "image.src"}},
        {"name": "a", "ttl": 1}
      ]}
      """
    try Data(config.utf8).write(to: configDirectory.appendingPathComponent("config.json"))
    let configuration = try configuration()
    server.route(
      "/d.json",
      .json(
        #"{"data":{"list":[{"headline":"Declared","kicker":"K: ","summary":"S","image":{"src":"i.png"}}]}}"#
      ))
    let sources = try sources(configuration)
    #expect(sources.map(\.name) == ["a", "b", "c", "d"])
    #expect(sources[0].ttl == .seconds(1))
    #expect(sources[3].ttl == .seconds(120))
    let reports = await service().fetch(sources)
    let item = try #require(reports[3].items.first)
    #expect(item.title == "Declared")
    #expect(item.description == "K: S")
    #expect(item.imageURL == "i.png")
  }

  @Test(
    "an invalid config names the file, the source and the field (exit 78)",
    arguments: [
      (#"{"sources": [{"name": "d", "url": "ftp://x"}]}"#, "source 'd', field 'url'"),
      (
        #"{"sources": [{"name": "d", "url": "http://x/d", "mapping": {"title": "t"}}]}"#,
        "field 'mapping.items'"
      ),
      (#"{"sources": [{"name": "d", "url": "http://x/d", "format": "json"}]}"#, "field 'mapping'"),
      (#"{"sources": [{"name": "d", "url": "http://x/d", "format": "gopher"}]}"#, "field 'format'"),
      (#"{"sources": [{"name": "D!"}]}"#, "field 'sources[0].name'"),
      (#"{"sources": [{"name": "a", "ttl": "long"}]}"#, "source 'a', field 'ttl'"),
      (#"{"sources": {}}"#, "field 'sources'"), ("[1]", "config.json is not a JSON object"),
      (
        #"{"sources": [{"name": "d", "url": "http://x/d"}, {"name": "e", "url": "http://x/e"}, "#
          + #"{"name": "d", "url": "http://x/f"}]}"#,
        "source 'd', field 'name' is declared twice"
      ),
      (
        #"{"sources": [{"name": "d", "url": "http://x/d", "mapping": {"items": "", "title": 3}}]}"#,
        "field 'mapping.title'"
      ),
    ])
  func invalidConfig(text: String, mention: String) throws {
    let path = try directory.write("config.json", text)
    #expect {
      try FeedConfigFile.load(configuration(["NEWS_CONFIG": path]))
    } throws: { error in
      guard let error = error as? ConfigurationError else { return false }
      return error.exitCode == .configuration && error.message.hasPrefix(path)
        && error.message.contains(mention)
    }
  }

  @Test(
    "config.json is decoded with its types: a boolean is not a number of seconds",
    arguments: [#"{"sources": [{"name": "a", "ttl": true}]}"#, #"{"sources": [{"name": 3}]}"#])
  func typedConfig(text: String) {
    #expect(throws: ConfigurationError.self) {
      try FeedConfigFile.parse(Data(text.utf8), path: "config.json")
    }
  }

  @Test("regression (fuzzing): a huge ttl is a configuration error, not a crash")
  func hugeTTL() {
    #expect {
      try FeedConfigFile.parse(Fixtures.data("fuzz/config-huge-ttl.json"), path: "config.json")
    } throws: { error in
      (error as? ConfigurationError)?.message.contains("field 'ttl'") == true
    }
  }

  @Test(
    "a source's own hint (max-age, Expires) lengthens its time to live, unless ttl is set",
    arguments: [
      (["Cache-Control": "public, max-age=7200"], [String: String](), [1, 1, 2]),
      (
        ["Date": "Tue, 14 Nov 2023 22:13:20 GMT", "Expires": "Wed, 15 Nov 2023 00:13:20 GMT"],
        [:], [1, 1, 2]
      ),
      (["Cache-Control": "no-cache, max-age=7200"], [:], [1, 2, 3]),
      (["Cache-Control": "max-age=7200"], ["NEWS_FEED_A_TTL": "300"], [1, 2, 3]),
      // A hint of a year is honoured for a day at most.
      (["Cache-Control": "max-age=31536000"], [:], [1, 1, 1]),
    ])
  func responseHints(headers: [String: String], environment: [String: String], requests: [Int])
    async throws
  {
    var all = headers
    all["Content-Type"] = "application/json"
    server.route(
      "/a.json",
      LoopbackServer.Response(
        headers: all, body: Fixtures.data("source_a.readme-sample.json")))
    let sources = try sources(try configuration(environment)).filter { $0.name == "a" }
    var seen: [Int] = []
    // At once, an hour on, then three hours on (past the 2 h hint, within a day).
    for step in [0.0, 3_600, 7_200] {
      clock.advance(by: step)
      _ = await service().fetch(sources)
      seen.append(server.requests(to: "/a.json").count)
    }
    #expect(seen == requests)
  }

  @Test(
    "back-pressure: with the store's writer behind, no source is asked past twice the requests in flight",
    .timeLimit(.minutes(10)))
  func backPressure() async throws {
    // One request at a time: two sources may be between their request and their items stored.
    let transport = HTTPTransport(
      client: URLSessionHTTPClient(), retryPolicy: RetryPolicy(delay: .zero), timing: .test(),
      maximumConcurrentRequests: 1, maximumConcurrentRequestsPerHost: 1)
    #expect(FeedService.pendingSources(transport) == 2)
    var service = FeedService(
      transport: transport,
      cache: EncryptedStore.testing(in: directory.url.appendingPathComponent("cache"), key: 5),
      articles: articleStore(), now: { [clock] in clock.now }, timeZone: .gmt,
      deadline: Deadline(
        .seconds(30), variable: "NEWS_SOURCE_DEADLINE",
        sleep: { try await TestClock().sleep(for: $0) }))
    let writerHeld = DispatchSemaphore(value: 0)
    let released = Mutex(false)
    let whileHeld = Recorder<String>()
    for index in 0..<5 {
      server.route("/feed-\(index).xml") { _ in
        if !released.withLock({ $0 }) { whileHeld.record("feed-\(index)") }
        return LoopbackServer.Response(
          body: Data(
            """
            <rss version="2.0"><channel><title>f</title>
            <item><title>item \(index)</title><link>https://example.com/\(index)</link></item>
            </channel></rss>
            """.utf8))
      }
    }
    let sources = (0..<5).map { index in
      FeedSource(
        name: "feed-\(index)", url: server.baseURL.appendingPathComponent("feed-\(index).xml"),
        ttl: .seconds(60), adapter: SyndicationAdapter())
    }
    // The writer is held: the first sources' items wait for it, and say so as they queue.
    let (queued, queuing) = AsyncStream<Int>.makeStream()
    service.observeWaitingForWriter { queuing.yield($0) }
    let (held, holding) = AsyncStream<Int>.makeStream()
    service.onWaitingToStart = { holding.yield($0) }
    StoreWriter.enqueue { writerHeld.wait() }
    let run = Task { [service] in await service.fetch(sources) }
    // Every source accounted for: two wait for the writer, three are held before their
    // request (without the back-pressure none is held, and this waits until the time limit).
    for await waiting in queued where waiting >= 2 { break }
    for await waiting in held where waiting >= 3 { break }
    #expect(service.waitingForWriter == 2)
    // Two asked and waiting: the third is not asked before one of them is stored.
    #expect(whileHeld.all.count == 2, "\(whileHeld.all)")
    released.withLock { $0 = true }
    writerHeld.signal()
    let reports = await run.value
    #expect(reports.map(\.status) == Array(repeating: .fresh, count: 5))
    #expect(server.requests(to: "/feed-4.xml").count == 1)
  }

  @Test("a feed's <ttl> and sy:updatePeriod are read as its hint")
  func documentHints() throws {
    func hint(_ channel: String) throws -> Double? {
      let xml = """
        <rss version="2.0" xmlns:sy="http://purl.org/rss/1.0/modules/syndication/"><channel>
        <title>t</title>\(channel)<item><title>x</title></item></channel></rss>
        """
      return try FeedDocumentParser.parse(Data(xml.utf8), origin: FeedOrigin()).refreshHint?
        .seconds
    }
    #expect(try hint("<ttl>120</ttl>") == 7_200)
    #expect(try hint("<sy:updatePeriod>daily</sy:updatePeriod>") == 86_400)
    #expect(
      try hint(
        "<sy:updatePeriod>hourly</sy:updatePeriod><sy:updateFrequency>2</sy:updateFrequency>")
        == 1_800)
    #expect(try hint("<ttl>soon</ttl>") == nil)
    #expect(try hint("<sy:updatePeriod>never</sy:updatePeriod>") == nil)
    #expect(try hint("") == nil)
  }

  @Test("a 503 with Retry-After backs the source off for that long, across runs")
  func retryAfterBackoff() async throws {
    server.route(
      "/a.json",
      LoopbackServer.Response(status: 503, headers: ["Retry-After": "3600"]))
    let sources = try sources(try configuration()).filter { $0.name == "a" }
    let first = await service().fetch(sources)
    #expect(first.map(\.status) == [.failed])
    let asked = server.requests(to: "/a.json").count
    // Recorded at the first answer: an hour is not waited out within the source's deadline.
    #expect(asked == 1)
    // Ten minutes on, a new run (a new service) does not ask, and says why.
    clock.advance(by: 600)
    let waiting = await service().fetch(sources, refresh: true)
    #expect(server.requests(to: "/a.json").count == asked)
    #expect(waiting.first?.error?.contains("Retry-After") == true)
    // Past the hour it asks again.
    server.route("/a.json", .fixture("source_a.readme-sample.json"))
    clock.advance(by: 3_600)
    let after = await service().fetch(sources)
    #expect(after.map(\.status) == [.fresh])
    #expect(server.requests(to: "/a.json").count == asked + 1)
  }

  @Test(
    "a sync answers a source not due from the cache's directory, its count cut by max-items; an entry of unknown count is read whole"
  )
  func syncCountsFromDirectory() async throws {
    server.route("/three.xml") { _ in
      LoopbackServer.Response(
        body: Data(
          """
          <rss version="2.0"><channel><title>f</title>
          <item><title>one</title><link>https://example.com/1</link></item>
          <item><title>two</title><link>https://example.com/2</link></item>
          <item><title>three</title><link>https://example.com/3</link></item>
          </channel></rss>
          """.utf8))
    }
    let all =
      try sources(try configuration()) + [
        FeedSource(
          name: "three", url: server.baseURL.appendingPathComponent("three.xml"),
          ttl: .seconds(600), adapter: SyndicationAdapter())
      ]
    let counted = FeedRun.Options(freshness: .whenExpired, items: .counted, newItems: false)
    let first = await service().run(all, counted).reports
    #expect(first.allSatisfy { $0.status == .fresh && $0.itemCount > 0 })
    let asked = server.requests.count
    // Not due: answered from the directory, asking nothing, counting the same.
    let again = await service().run(all, counted).reports
    #expect(again.allSatisfy { $0.status == .cached && $0.pack == nil && $0.items.isEmpty })
    #expect(again.map(\.itemCount) == first.map(\.itemCount))
    #expect(server.requests.count == asked)
    // A source now keeping fewer items than its entry holds counts those it keeps.
    #expect(first.last?.itemCount == 3)
    var fewer = all
    fewer[fewer.count - 1].maxItems = 2
    let cut = await service().run(fewer, counted).reports
    #expect(cut.last?.itemCount == 2 && cut.last?.status == .cached)
    // Entries written without their count (as a conversion writes them) are read whole.
    let store = EncryptedStore.testing(in: directory.url.appendingPathComponent("cache"), key: 5)
    let cache = FeedCache(store: store)
    try cache.commit(
      try all.map { ($0.name, try #require(try cache.entry(of: $0.name))) })
    #expect(try all.allSatisfy { try FeedCache(store: store).counted($0.name)?.itemCount == nil })
    let whole = await service().run(all, counted).reports
    #expect(whole.allSatisfy { $0.status == .cached })
    #expect(whole.map(\.itemCount) == first.map(\.itemCount))
  }

  /// `/versioned.xml`: `2 + version` items under the ETag `"v<version>"` (the version last
  /// recorded, 1 before any), 304 to that ETag.
  func versionedFeed(_ version: Recorder<Int>) -> FeedSource {
    server.route("/versioned.xml") { request in
      let current = version.all.last ?? 1
      if request.headers["if-none-match"] == "\"v\(current)\"" {
        return LoopbackServer.Response(status: 304)
      }
      let items = (0..<(2 + current)).map {
        "<item><title>item \($0)</title><link>https://example.com/\($0)</link></item>"
      }
      return LoopbackServer.Response(
        headers: ["ETag": "\"v\(current)\""],
        body: Data(
          "<rss version=\"2.0\"><channel><title>f</title>\(items.joined())</channel></rss>".utf8))
    }
    return FeedSource(
      name: "versioned", url: server.baseURL.appendingPathComponent("versioned.xml"),
      ttl: .seconds(600), adapter: SyndicationAdapter())
  }

  @Test("a sync asking a source again leaves its cached items unread when it answers 304")
  func syncLeavesItemsFor304() async throws {
    let version = Recorder<Int>()
    let source = versionedFeed(version)
    let counted = FeedRun.Options(freshness: .refresh, items: .counted)
    let first = await service().run([source], counted).reports[0]
    #expect(first.status == .fresh && first.itemCount == 3 && first.newItemIDs.count == 3)
    // The entry's record damaged, the bundle's directory whole: a 304 needs nothing of it.
    let cache = directory.url.appendingPathComponent("cache")
    #expect(try !damageFeedCacheBundles(in: cache).isEmpty)
    let unchanged = await service().run([source], counted).reports[0]
    #expect(unchanged.status == .fresh && unchanged.revalidated, "\(unchanged.error ?? "")")
    #expect(unchanged.itemCount == 3)
    // A 200 tells its new items from the cached ones: unreadable, the source fails, stale, and
    // nothing is written in place of its entry.
    version.record(2)
    // The feed cache's files: its index and its bundles.
    func feedCache() throws -> [String: Data] {
      var files: [String: Data] = [:]
      for name in try FileManager.default.contentsOfDirectory(atPath: cache.path)
      where name.hasPrefix("feeds") {
        files[name] = try Data(contentsOf: cache.appendingPathComponent(name))
      }
      return files
    }
    let before = try feedCache()
    let changed = await service().run([source], counted).reports[0]
    #expect(changed.status == .stale && changed.itemCount == 3)
    #expect(changed.error?.contains("its cached items could not be read again") == true)
    #expect(try feedCache() == before && !before.isEmpty)
  }

  @Test(
    "a sync reads a source's cached items when its answer needs them: new ones told, a day's 304 rewrites them"
  )
  func syncReadsItemsWhenNeeded() async throws {
    let version = Recorder<Int>()
    let source = versionedFeed(version)
    let counted = FeedRun.Options(freshness: .refresh, items: .counted)
    _ = await service().run([source], counted)
    // One item more: only it is new, as the cached ones were read to tell.
    version.record(2)
    let changed = await service().run([source], counted).reports[0]
    #expect(changed.status == .fresh && changed.itemCount == 4)
    #expect(changed.newItemIDs.count == 1 && changed.newItemList.map(\.title) == ["item 3"])
    // A day later an unchanged answer writes the entry in full: with its four items.
    clock.advance(by: 86_400)
    let daily = await service().run([source], counted).reports[0]
    #expect(daily.status == .fresh && !daily.revalidated && daily.itemCount == 4)
    let store = EncryptedStore.testing(in: directory.url.appendingPathComponent("cache"), key: 5)
    let entry = try #require(try FeedCache(store: store).entry(of: "versioned"))
    #expect(try FeedCacheEntry.decode(entry).items.count == 4)
    #expect(try FeedCache(store: store).counted("versioned")?.itemCount == 4)
  }

  @Test("a sync's fetch holds no item once stored: counts stay, the articles are in the store")
  func itemsDroppedOnceStored() async throws {
    let sources = try sources(try configuration())
    let reports = await service().run(
      sources, FeedRun.Options(freshness: .refresh, items: .counted, newItems: false)
    ).reports
    #expect(reports.allSatisfy { $0.status == .fresh && $0.notKept == nil })
    #expect(reports.allSatisfy { $0.items.isEmpty && $0.newItemList.isEmpty })
    #expect(reports.map(\.itemCount).allSatisfy { $0 > 0 })
    // Every item is new to an empty cache: named, though the items are not kept.
    #expect(reports.map(\.newItemIDs.count) == reports.map(\.itemCount))
    let stored = try articleStore().allArticles().count
    #expect(stored == reports.map(\.itemCount).reduce(0, +))
    // Keeping the new items (for a newItem hook) keeps those only.
    let again = await service().run(
      sources, FeedRun.Options(freshness: .refresh, items: .counted)
    ).reports
    #expect(again.allSatisfy { $0.items.isEmpty && $0.newItemList.isEmpty })
    #expect(again.allSatisfy { $0.newItemIDs.isEmpty })
  }

}

extension FeedService {
  /// The reports of a run: these tests' shorthand for ``run(_:_:)`` with the command line's two
  /// flags.
  func fetch(_ sources: [FeedSource], refresh: Bool = false, offline: Bool = false) async
    -> [FeedSourceReport]
  {
    await run(sources, FeedRun.Options(freshness: .init(refresh: refresh, offline: offline)))
      .reports
  }
}
