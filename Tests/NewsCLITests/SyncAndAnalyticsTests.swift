import FeedParsing
import Foundation
import NewsCore
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite("news sync and analytics")
struct SyncAndAnalyticsTests {
  let harness: Harness

  init() throws {
    harness = try Harness()
    let server = harness.server
    server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    server.route("/articles", .fixture("articles.json"))
    server.route("/bbc.json", .fixture("headlines.json"))
    for name in ["a", "b", "c"] {
      server.route("/feed/\(name).json", .fixture("source_\(name).readme-sample.json"))
    }
    server.route("/analytics", .json("{}"))
  }

  @Test("every source ok: exit 0, one line per source, then everything reads offline")
  func allOK() async throws {
    let result = await harness.run(["sync"])
    #expect(result.code == .success)
    let lines = result.out.split(separator: "\n")
    #expect(lines.count == 6)
    #expect(lines[0].hasPrefix("newsapi") && lines[0].hasSuffix("ok 20 new (20 total)"))
    #expect(lines[1].hasSuffix("ok 60 new (60 total)"))
    #expect(lines[3].hasPrefix("a "))
    let requests = harness.server.requests.count
    for arguments in [
      ["headlines", "--offline"], ["headlines", "--from", "articles", "--offline"],
      ["headlines", "--from", "bbc", "--offline"], ["feed", "--offline"],
    ] {
      let offline = await harness.run(arguments)
      #expect(offline.code == .success, "\(arguments): \(offline.err)")
    }
    #expect(harness.server.requests.count == requests)
    let again = await harness.run(["sync", "--quiet"])
    #expect(again.out.isEmpty && again.err.isEmpty)
  }

  @Test("a feed source is asked when it is due; --refresh asks every one")
  func dueOnly() async throws {
    let start = Date(timeIntervalSince1970: 1_645_120_000)
    #expect(await harness.run(["sync"], now: start).code == .success)
    let asked = {
      ["a", "b", "c"].map { self.harness.server.requests(to: "/feed/\($0).json").count }
    }
    #expect(asked() == [1, 1, 1])
    // Ten minutes on: A (5 minutes) is due, B (30) and C (60) are not, and say when they are.
    let later = await harness.run(["sync", "--json"], now: start + 600)
    #expect(later.code == .success, "\(later.err)")
    #expect(asked() == [2, 1, 1])
    let sources = try #require(try later.json()["sources"] as? [[String: Any]])
    let feeds = sources.filter { ["a", "b", "c"].contains($0["name"] as? String ?? "") }
    #expect(feeds.map { $0["status"] as? String } == ["ok", "ok", "ok"])
    #expect(feeds.map { $0["asked"] as? Bool } == [true, false, false])
    #expect(feeds[1]["nextFetchAt"] as? String == "2022-02-17T18:16:40Z")
    #expect(feeds[1]["new"] as? Int == 0 && feeds[1]["total"] as? Int == 1)
    let text = await harness.run(["sync"], now: start + 660)
    #expect(
      text.out.contains("\nc         not due (1 total); next in 49 min: no dated items to go by\n"))
    let refreshed = await harness.run(["sync", "--refresh"], now: start + 720)
    #expect(refreshed.code == .success)
    #expect(asked() == [3, 2, 2])
  }

  @Test("without NEWSAPI_KEY, newsapi is skipped, and says so")
  func withoutKey() async throws {
    let result = await harness.run(["sync", "--json"], environment: ["NEWSAPI_KEY": nil])
    #expect(result.code == .success)
    let sources = try #require(try result.json()["sources"] as? [[String: Any]])
    #expect(
      sources.map { $0["name"] as? String } == [
        "newsapi", "articles", "bbc", "a", "b", "c",
      ])
    #expect(sources[0]["status"] as? String == "skipped")
    #expect(sources[0]["error"] as? String == "no NEWSAPI_KEY")
    let text = await harness.run(["sync"], environment: ["NEWSAPI_KEY": nil])
    #expect(text.out.hasPrefix("newsapi   skipped (no NEWSAPI_KEY)\n"))
    #expect(text.code == .success)
  }

  @Test("some failed: exit 75, the report says which, with 1 + 3 attempts and the delay")
  func partial() async throws {
    harness.server.route("/bbc.json", .json("{}", status: 503))
    let result = await harness.run(["sync", "--json"])
    #expect(result.code == .temporaryFailure)
    let document = try result.json()
    #expect(document["startedAt"] is String && document["finishedAt"] is String)
    let sources = try #require(document["sources"] as? [[String: Any]])
    let bbc = try #require(sources.first { $0["name"] as? String == "bbc" })
    #expect(bbc["status"] as? String == "failed")
    #expect(bbc["attempts"] as? Int == 4)
    #expect((bbc["error"] as? String)?.contains("HTTP 503") == true)
    let articles = try #require(sources.first { $0["name"] as? String == "articles" })
    #expect(articles["status"] as? String == "ok")
    #expect(articles["attempts"] as? Int == 1)
    #expect(articles["new"] as? Int == 60)
    #expect(
      Set(articles.keys) == [
        "name", "status", "new", "total", "error", "attempts", "asked", "nextFetchAt",
      ])
    #expect(articles["asked"] as? Bool == true)
    #expect(harness.sleeps.all == [.seconds(2), .seconds(2), .seconds(2)])
  }

  @Test("a failing source's line says why without naming the source twice")
  func failedLine() async {
    harness.server.route("/feed/c.json", .json("", status: 500))
    let result = await harness.run(["sync"], environment: ["NEWS_RETRY_DELAY": "0"])
    #expect(result.code == .temporaryFailure)
    let line = result.out.split(separator: "\n").first { $0.hasPrefix("c ") }
    #expect(
      line?.hasSuffix("failed: answered HTTP 500 (internal server error) after 4 attempts") == true,
      "\(result.out)")
  }

  @Test("--quiet prints only the failures, on stderr")
  func quietFailure() async {
    harness.server.route("/articles", .dropped)
    let result = await harness.run(["sync", "--quiet"])
    #expect(result.code == .temporaryFailure)
    #expect(result.out.isEmpty)
    #expect(result.err.hasPrefix("articles"))
    // The failure's line, then the error line a failing command ends with.
    let lines = result.err.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.last == "news: 1 of 6 sources failed; what the others pulled is kept")
  }

  @Test("all failed: exit 69")
  func allFailed() async {
    for path in [
      "/v2/top-headlines", "/articles", "/bbc.json", "/feed/a.json", "/feed/b.json", "/feed/c.json",
    ] {
      harness.server.route(path, .json("{}", status: 500))
    }
    let result = await harness.run(["sync"])
    #expect(result.code == .unavailable)
    #expect(result.out.components(separatedBy: "failed:").count == 7)
  }

  @Test("a source whose items could not be stored is a failure, not ok (a damaged manifest)")
  func syncNotStored() async throws {
    #expect(await harness.run(["sync"]).code == .success)
    let manifest = harness.home.url.appendingPathComponent("news/segments.enc")
    var bytes = try Data(contentsOf: manifest)
    bytes[bytes.count / 2] ^= 1
    try bytes.write(to: manifest)
    let result = await harness.run(["sync", "--refresh", "--json"])
    #expect(result.code != .success)
    let sources = try #require(try result.json()["sources"] as? [[String: Any]])
    let feeds = sources.filter { ["a", "b", "c"].contains($0["name"] as? String ?? "") }
    #expect(feeds.count == 3)
    for feed in feeds {
      #expect(feed["status"] as? String == "failed")
      #expect(feed["new"] as? Int == 0)
      #expect((feed["error"] as? String)?.contains("its items were not stored") == true)
    }
  }

  @Test("a bad configuration is exit 78")
  func configuration() async {
    let result = await harness.run(["sync"], environment: ["NEWS_RETRY_DELAY": "x"])
    #expect(result.code == .configuration)
  }

  /// Holds the sync lock as another `news sync` would.
  func holdSyncLock() throws -> Int32 {
    let directory = harness.home.path("news")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let fd = open(directory + "/sync.lock", O_RDWR | O_CREAT, 0o600)
    #expect(fd >= 0)
    #expect(flock(fd, LOCK_EX) == 0)
    return fd
  }

  @Test("a second sync while one runs is skipped with exit 75")
  func lockSkips() async throws {
    let fd = try holdSyncLock()
    defer { close(fd) }
    let skipped = await harness.run(["sync"])
    #expect(skipped.code == .temporaryFailure)
    #expect(
      skipped.err == "news: another news sync is running; skipped (pass --wait to wait for it)\n")
    #expect(harness.server.requests.isEmpty)
  }

  /// Whether another open file description waits for the lock on the file `fd` has open: Linux
  /// lists a blocked `flock` in /proc/locks as `->` with the file's inode.
  static func someoneWaits(onLockOf fd: Int32) -> Bool {
    var info = stat()
    guard fstat(fd, &info) == 0,
      let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8)
    else { return false }
    return locks.split(separator: "\n").contains { line in
      line.contains("->") && line.contains(":\(info.st_ino) ")
    }
  }

  @Test(
    "--wait waits for the running sync, then syncs",
    .enabled(if: FileManager.default.fileExists(atPath: "/proc/locks")))
  func lockWaits() async throws {
    let fd = try holdSyncLock()
    let requestsWhileHeld = Recorder<Int>()
    let server = harness.server
    Thread {
      // Released only once the command is seen waiting for the lock. /proc/locks has no event to
      // wait on, so it is looked at again and again, a bounded number of times: if the command
      // is never seen waiting, the lock is released anyway and the record below fails the test.
      var looks = 0
      while !Self.someoneWaits(onLockOf: fd), looks < 60_000 {
        usleep(1_000)
        looks += 1
      }
      requestsWhileHeld.record(Self.someoneWaits(onLockOf: fd) ? server.requests.count : -1)
      close(fd)
    }.start()
    let waited = await harness.run(["sync", "--wait"])
    #expect(waited.code == .success)
    // Nothing was fetched while the other sync held the lock; everything after.
    #expect(requestsWhileHeld.all == [0])
    #expect(!harness.server.requests.isEmpty)
  }

  @Test("analytics: a load event per request with its time, one display event per screen")
  func events() async throws {
    let result = await harness.run(["headlines"], environment: ["NEWS_ANALYTICS": nil])
    #expect(result.code == .success)
    let events = harness.server.requests(to: "/analytics")
    #expect(
      events.map { $0.query["event"] }.sorted { ($0 ?? "") < ($1 ?? "") } == ["display", "load"])
    for event in events {
      let time = try #require(event.query["time"].flatMap(Int.init))
      #expect(time >= 0 && time < 5000)
      #expect(event.query["data"] == nil)
    }
  }

  @Test("analytics: a retried request sends one load event per attempt, none for analytics")
  func loadPerAttempt() async throws {
    harness.server.route(
      "/v2/top-headlines",
      responses: [.json("{}", status: 500), .fixture("top-headlines-us-2022-02-17.json")])
    await harness.succeed(["headlines", "--json"], environment: ["NEWS_ANALYTICS": nil])
    let loads = harness.server.requests(to: "/analytics").filter { $0.query["event"] == "load" }
    #expect(loads.count == 2)
  }

  @Test(
    "analytics: none at all with DO_NOT_TRACK=1 or NEWS_ANALYTICS=off",
    arguments: [["DO_NOT_TRACK": "1", "NEWS_ANALYTICS": nil], ["NEWS_ANALYTICS": "off"]])
  func doNotTrack(environment: [String: String?]) async {
    let result = await harness.run(["headlines"], environment: environment)
    #expect(result.code == .success)
    #expect(harness.server.requests(to: "/analytics").isEmpty)
  }

  @Test(
    "a hanging analytics endpoint holds the command for the flush limit only, and never fails it")
  func hanging() async throws {
    let answered = Recorder<Bool>()
    let hold = harness.server.hold
    harness.server.route("/analytics") { _ in
      hold()
      answered.record(true)
      return .json("{}")
    }
    let limits = Recorder<Duration>()
    let server = harness.server
    let result = await harness.run(
      ["headlines", "--json"], environment: ["NEWS_ANALYTICS": nil],
      analyticsFlushLimit: .milliseconds(300),
      deadline: passing(.milliseconds(300), asked: limits) {
        !server.requests(to: "/analytics").isEmpty
      })
    #expect(result.code == .success)
    #expect(result.err.isEmpty)
    // The command ended at its limit, while the endpoint still held the events.
    #expect(limits.all.filter { $0 == .milliseconds(300) }.count == 1)
    // The event was in flight when the limit passed (the command did not wait for its answer:
    // the endpoint holds it until the server stops, after the test).
    #expect(!server.requests(to: "/analytics").isEmpty)
    #expect(answered.all.isEmpty)
  }

  @Test(
    "offline commands send nothing at all, analytics included",
    arguments: [
      ["headlines", "--offline"], ["bookmarks"], ["search", "Olympics"],
      ["show", "1", "--offline"],
      ["feed", "--offline"],
    ])
  func offlineSendsNothing(arguments: [String]) async throws {
    harness.server.route("/analytics", .json("{}"))
    harness.server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    await harness.succeed(["headlines"])
    let before = harness.server.requests.count
    let result = await harness.run(arguments, environment: ["NEWS_ANALYTICS": nil])
    #expect(result.code == .success || arguments[0] == "feed", "\(result.err)")
    #expect(harness.server.requests.count == before)
  }

  @Test("analytics failing never fails a command")
  func failingEndpoint() async {
    harness.server.route("/analytics", .dropped)
    let result = await harness.run(["headlines"], environment: ["NEWS_ANALYTICS": nil])
    #expect(result.code == .success)
    #expect(result.err.isEmpty)
  }
}
