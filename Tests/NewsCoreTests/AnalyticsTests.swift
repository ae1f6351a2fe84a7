import Foundation
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

@Suite("Analytics")
struct AnalyticsTests {
  let server: LoopbackServer

  init() throws { server = try LoopbackServer() }

  func transport() -> HTTPTransport {
    HTTPTransport(
      client: URLSessionHTTPClient(), retryPolicy: RetryPolicy(retries: 0), timing: .test())
  }

  @Test("events are GETs with event and time in whole milliseconds, never retried")
  func events() async throws {
    server.route("/analytics", .json("{}", status: 500))
    let analytics = Analytics()
    analytics.activate(
      endpoint: server.baseURL.appendingPathComponent("analytics"), transport: transport())
    analytics.recordLoad(.milliseconds(1234) + .microseconds(999))
    analytics.record("display", milliseconds: 56)
    await analytics.flush(within: .seconds(5)) { try await TestClock().sleep(for: $0) }
    let queries = server.requests(to: "/analytics").map(\.rawQuery).sorted()
    #expect(queries == ["event=display&time=56", "event=load&time=1234"])
  }

  @Test("inactive analytics send nothing")
  func inactive() async {
    let analytics = Analytics()
    analytics.record("display", milliseconds: 1)
    #expect(!analytics.isActive)
    await analytics.flush(within: .seconds(1)) { _ in Issue.record("nothing to wait for") }
    #expect(server.requests.isEmpty)
  }

  @Test(
    "flush gives a hanging endpoint the limit and no more, then abandons the event",
    .timeLimit(.minutes(10)))
  func hanging() async throws {
    // A request that cancelling cannot stop: the flush must not wait for it (it did, until the
    // request's own timeout: 15 s a command against a hanging endpoint).
    let client = HeldClient()
    let analytics = Analytics()
    analytics.activate(
      endpoint: URL(string: "https://analytics.example/e")!,
      transport: HTTPTransport(
        client: client, retryPolicy: RetryPolicy(retries: 0), timing: .test()))
    analytics.record("load", milliseconds: 1)
    let asked = Recorder<Duration>()
    let arrivals = client.arrivals
    await analytics.flush(within: .milliseconds(300)) { limit in
      asked.record(limit)
      // The limit passes once the event is in flight.
      var sent = arrivals.makeAsyncIterator()
      _ = await sent.next()
    }
    #expect(asked.all == [.milliseconds(300)])
    // Returned while the request still hangs; let go of it now.
    client.release.finish()
  }

  @Test("flush returns as soon as the events are sent, without waiting out the limit")
  func flushEarly() async throws {
    server.route("/analytics", .json("{}"))
    let analytics = Analytics()
    analytics.activate(
      endpoint: server.baseURL.appendingPathComponent("analytics"), transport: transport())
    analytics.record("display", milliseconds: 3)
    // A limit that never passes: the flush can only end because the event was sent.
    await analytics.flush(within: .seconds(1)) { try await TestClock().sleep(for: $0) }
    #expect(server.requests(to: "/analytics").map(\.rawQuery) == ["event=display&time=3"])
  }
}
