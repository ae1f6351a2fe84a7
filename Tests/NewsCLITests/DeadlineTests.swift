import FeedParsing
import Foundation
import NewsCore
import TestSupport
import Testing

/// Optional counts and slow sources have overall deadlines. The deadline here passes when the
/// test says (once the hanging requests are in), never by the clock: without deadlines these
/// commands would wait for the server's 20 s.
@Suite("Deadlines: counts of show, sources of feed and sync")
struct DeadlineTests {
  let harness: Harness
  let released = Recorder<Bool>()

  init() throws { harness = try Harness() }

  /// A route that holds its request far longer than the test.
  func hang(_ path: String) {
    harness.server.route(path, holding)
  }

  /// Every path starting with `prefix` held.
  func hang(prefix: String) {
    harness.server.route(prefix: prefix, holding)
  }

  private var holding: LoopbackServer.Handler {
    let released = self.released
    let hold = harness.server.hold
    return { _ in
      hold()
      released.record(true)
      return .json("{}")
    }
  }

  /// Limits where only `duration` passes, once `arrived` holds for the requests the server has
  /// had; the limits asked for are recorded in `limits`.
  func deadline(
    _ duration: Duration, limits: Recorder<Duration>,
    until arrived: @escaping @Sendable ([LoopbackServer.Request]) -> Bool
  ) -> Sleeper {
    let server = harness.server
    return passing(duration, asked: limits) { arrived(server.requests) }
  }

  @Test("show: hanging counts read unavailable at the deadline; the article is shown")
  func countsDeadline() async throws {
    harness.server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    await harness.succeed(["headlines"])
    hang(prefix: "/info/likes/")
    hang(prefix: "/info/comments/")
    let limits = Recorder<Duration>()
    let result = await harness.run(
      ["show", "1"], environment: ["NEWS_COUNTS_DEADLINE": "2.5"],
      deadline: deadline(.milliseconds(2500), limits: limits) { requests in
        requests.contains { $0.path.hasPrefix("/info/likes/") }
          && requests.contains { $0.path.hasPrefix("/info/comments/") }
      })
    #expect(result.code == .success)
    #expect(result.out.contains("Read:  https://www.usatoday.com/"))
    #expect(result.out.contains("♥ unavailable · 💬 unavailable"))
    #expect(
      result.err
        == "news: warning: likes unavailable: no answer within 2.5 s (NEWS_COUNTS_DEADLINE)\n"
        + "news: warning: comments unavailable: no answer within 2.5 s (NEWS_COUNTS_DEADLINE)\n")
    #expect(limits.all.filter { $0 == .milliseconds(2500) }.count == 1)
    #expect(released.all.isEmpty)
  }

  @Test("feed: a hanging source fails at its deadline with a message naming it")
  func feedDeadline() async throws {
    hang("/feed/a.json")
    let limits = Recorder<Duration>()
    let result = await harness.run(
      ["feed", "--source", "a", "--json"], environment: ["NEWS_SOURCE_DEADLINE": "12"],
      deadline: deadline(.seconds(12), limits: limits) { requests in
        requests.contains { $0.path == "/feed/a.json" }
      })
    #expect(result.code == .unavailable)
    let sources = try #require(try result.json()["sources"] as? [[String: Any]])
    #expect(
      sources.first?["error"] as? String
        == "source a: no answer within 12 s (NEWS_SOURCE_DEADLINE)")
    #expect(limits.all.filter { $0 == .seconds(12) }.count == 1)
    #expect(released.all.isEmpty)
  }

  @Test("sync: every source hanging ends at the deadline with every source failed, exit 69")
  func syncDeadline() async throws {
    let paths = ["/articles", "/bbc.json", "/feed/a.json", "/feed/b.json", "/feed/c.json"]
    for path in paths { hang(path) }
    let limits = Recorder<Duration>()
    let result = await harness.run(
      ["sync", "--json"], environment: ["NEWSAPI_KEY": nil],
      deadline: deadline(.seconds(30), limits: limits) { requests in
        // Four at a time per host: the fifth waits for a slot, inside its own deadline.
        paths.filter { path in requests.contains { $0.path == path } }.count >= 4
      })
    #expect(result.code == .unavailable)
    let sources = try #require(try result.json()["sources"] as? [[String: Any]])
    let failed = sources.filter { $0["status"] as? String == "failed" }
    #expect(failed.count == 5)
    for source in failed {
      #expect(
        (source["error"] as? String)?.contains("no answer within 30 s (NEWS_SOURCE_DEADLINE)")
          == true)
    }
    // One deadline per source; the other limits asked for are the requests' timeouts.
    #expect(limits.all.filter { $0 == .seconds(30) }.count == 5)
    #expect(limits.all.allSatisfy { $0 == .seconds(30) || $0 == .seconds(15) })
    #expect(released.all.isEmpty)
  }
}
