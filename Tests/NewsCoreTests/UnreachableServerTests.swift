import Foundation
import Synchronization
import TestSupport
import Testing

@testable import NewsCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A server that cannot be reached costs one source's retries in a run, not each of its sources'.
@Suite("a run's sources on a server that cannot be reached")
struct UnreachableServerTests {
  let directory = TemporaryDirectory()

  /// A service with one request at a time (two sources under way): the third source starts
  /// only once one of the first two has finished, its retries spent.
  func service(attempts: AttemptLog) -> FeedService {
    FeedService(
      transport: HTTPTransport(
        client: URLSessionHTTPClient(), retryPolicy: RetryPolicy(retries: 2, delay: .zero),
        timing: .test(), maximumConcurrentRequests: 1, observer: { _ in attempts.add() }),
      cache: EncryptedStore.testing(in: directory.url.appendingPathComponent("cache"), key: 9),
      articles: nil, now: { Date(timeIntervalSince1970: 1_800_000_000) }, timeZone: .gmt,
      deadline: Deadline(
        .seconds(30), variable: "NEWS_SOURCE_DEADLINE",
        sleep: { try await TestClock().sleep(for: $0) }))
  }

  @Test(
    "after one source's retries, its server's other sources fail at once; another server is asked")
  func notAskedAgain() async throws {
    let closed = try ClosedPort()
    let server = try LoopbackServer()
    server.route(
      "/up.xml",
      LoopbackServer.Response(
        body: Data(#"<rss version="2.0"><channel><title>Up</title></channel></rss>"#.utf8)))
    let down = (1...4).map { index in
      FeedSource(
        name: "down-\(index)", url: closed.baseURL.appendingPathComponent("feed\(index).xml"),
        ttl: .seconds(900), adapter: SyndicationAdapter())
    }
    let up = FeedSource(
      name: "up", url: server.baseURL.appendingPathComponent("up.xml"), ttl: .seconds(900),
      adapter: SyndicationAdapter())
    let attempts = AttemptLog()
    let reports = await service(attempts: attempts).run(
      down + [up], FeedRun.Options(freshness: .refresh)
    ).reports
    // The first two were under way together, each tried three times; the other two not at all.
    #expect(attempts.count == 2 * 3 + 1)
    #expect(reports.map(\.status) == [.failed, .failed, .failed, .failed, .fresh])
    for report in reports[2...3] {
      #expect(
        report.error?.hasSuffix(
          "connection refused after 3 attempts (found by another of its sources; not asked "
            + "again in this run)") == true, "\(report.error ?? "")")
      #expect(report.attempts == 0)
    }
    #expect(server.requests(to: "/up.xml").count == 1)
  }

  @Test("only a server that cannot be reached is noted: a status or a timeout is the source's own")
  func onlyUnreachable() throws {
    let pauses = HostPauses()
    let feed = try #require(URL(string: "http://example.com/a.xml"))
    pauses.noteFailure(
      FeedError.status(source: "a", code: 500, attempts: 3), of: feed, message: "HTTP 500")
    pauses.noteFailure(
      HTTPError.network(host: "example.com", reason: "no answer within 15 s (NEWS_TIMEOUT)"),
      of: feed, message: "timed out")
    #expect(pauses.unreachable(feed) == nil)
    pauses.noteFailure(
      HTTPError.network(host: "example.com", reason: "host not found"), of: feed,
      message: "cannot reach example.com: host not found")
    #expect(
      pauses.unreachable(try #require(URL(string: "http://EXAMPLE.com:80/b.xml")))
        == "cannot reach example.com: host not found")
    #expect(pauses.unreachable(try #require(URL(string: "https://example.com/b.xml"))) == nil)
    #expect(pauses.unreachable(try #require(URL(string: "http://example.com:8080/b.xml"))) == nil)
  }
}

/// Counts the attempts a transport makes.
final class AttemptLog: Sendable {
  private let attempts = Mutex(0)
  func add() { attempts.withLock { $0 += 1 } }
  var count: Int { attempts.withLock { $0 } }
}
