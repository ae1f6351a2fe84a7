import Foundation
import TestSupport
import Testing

@testable import NewsCore

@Suite("Analytics")
struct AnalyticsTests {
  let server: LoopbackServer

  init() throws { server = try LoopbackServer() }

  func transport() -> HTTPTransport {
    HTTPTransport(client: URLSessionHTTPClient(), retryPolicy: RetryPolicy(retries: 0))
  }

  @Test("events are GETs with event and time in whole milliseconds, never retried")
  func events() async throws {
    server.route("/analytics", .json("{}", status: 500))
    let analytics = Analytics()
    analytics.activate(
      endpoint: server.baseURL.appendingPathComponent("analytics"), transport: transport())
    analytics.recordLoad(.milliseconds(1234) + .microseconds(999))
    analytics.record("display", milliseconds: 56)
    await analytics.flush(within: .seconds(5))
    let queries = server.requests(to: "/analytics").map(\.rawQuery).sorted()
    #expect(queries == ["event=display&time=56", "event=load&time=1234"])
  }

  @Test("inactive analytics send nothing")
  func inactive() async {
    let analytics = Analytics()
    analytics.record("display", milliseconds: 1)
    #expect(!analytics.isActive)
    await analytics.flush(within: .seconds(1))
    #expect(server.requests.isEmpty)
  }

  @Test("flush gives a hanging endpoint the limit and no more")
  func hanging() async {
    server.route("/analytics", .json("{}", delay: .seconds(5)))
    let analytics = Analytics()
    analytics.activate(
      endpoint: server.baseURL.appendingPathComponent("analytics"), transport: transport())
    analytics.record("load", milliseconds: 1)
    let clock = ContinuousClock()
    let elapsed = await clock.measure { await analytics.flush(within: .milliseconds(300)) }
    // It waited (an event was in flight) but gave up at the limit, not after 5 s.
    #expect(elapsed >= .milliseconds(300))
    #expect(elapsed < .seconds(3))
  }
}
