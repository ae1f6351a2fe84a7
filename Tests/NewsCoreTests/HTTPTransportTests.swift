import Foundation
import Synchronization
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("HTTP transport over URLSession, against the loopback server")
struct HTTPTransportTests {
  let server: LoopbackServer
  let sleeps = Recorder<Duration>()

  init() throws { server = try LoopbackServer() }

  func transport(retries: Int = 3, delay: Duration = .seconds(2), timeout: Duration = .seconds(5))
    -> HTTPTransport
  {
    let sleeps = self.sleeps
    return HTTPTransport(
      client: URLSessionHTTPClient(), retryPolicy: RetryPolicy(retries: retries, delay: delay),
      timeout: timeout, timing: .test(pauses: sleeps))
  }

  @Test(
    "a status reads with its reason when it is a common one, and with no trailing space when not",
    arguments: [
      (404, "HTTP 404 (not found)"), (410, "HTTP 410 (gone: removed for good)"),
      (429, "HTTP 429 (too many requests)"), (418, "HTTP 418"), (599, "HTTP 599"),
    ])
  func statusText(code: Int, expected: String) {
    #expect(HTTPError.status(code) == expected)
    #expect(
      FeedError.status(source: "x", code: code, attempts: 1).message
        == "source x answered \(expected)")
  }

  @Test("a 200 comes back at once with headers, User-Agent sent")
  func success() async throws {
    server.route("/ok", .json(#"{"a":1}"#, headers: ["ETag": "\"v1\""]))
    let response = try await transport().get(server.baseURL.appendingPathComponent("ok"))
    #expect(response.status == 200)
    #expect(response.attempts == 1)
    #expect(String(decoding: response.body, as: UTF8.self) == #"{"a":1}"#)
    #expect(response.headers["etag"] == "\"v1\"")
    #expect(server.requests.first?.headers["user-agent"] == "news/\(NewsVersion.current)")
    #expect(sleeps.all.isEmpty)
  }

  @Test("a caller's header replaces the default of the same name in any case; a POST's body goes")
  func headerNames() async throws {
    server.route("/h", .json("{}"))
    _ = try await transport().send(
      "POST", server.baseURL.appendingPathComponent("h"), json: Data("[1]".utf8),
      headers: ["ACCEPT": "text/xml", "user-AGENT": "other"])
    let sent = try #require(server.requests(to: "/h").first)
    #expect(sent.method == "POST")
    #expect(sent.headers["accept"] == "text/xml" && sent.headers["user-agent"] == "other")
    #expect(String(decoding: sent.body, as: UTF8.self) == "[1]")
    #expect(HTTPTransport.sameName("Content-Type", "content-TYPE"))
    #expect(!HTTPTransport.sameName("a-b", "a\rb"))
    #expect(!HTTPTransport.sameName("a@", "a`"))
    #expect(!HTTPTransport.sameName("Accept", "Accepts"))
  }

  @Test(
    "5xx is retried 3 times (4 attempts) with the configured delay", arguments: [500, 502, 503])
  func retriesServerErrors(status: Int) async throws {
    server.route("/down", .json("{}", status: status))
    let response = try await transport().get(server.baseURL.appendingPathComponent("down"))
    #expect(response.status == status)
    #expect(response.attempts == 4)
    #expect(server.requests(to: "/down").count == 4)
    #expect(sleeps.all == [.seconds(2), .seconds(2), .seconds(2)])
  }

  @Test("a failure that recovers returns the good response")
  func recovers() async throws {
    server.route("/flaky", responses: [.json("{}", status: 500), .dropped, .json("[1]")])
    let response = try await transport().get(server.baseURL.appendingPathComponent("flaky"))
    #expect(response.status == 200)
    #expect(response.attempts == 3)
    #expect(sleeps.all.count == 2)
  }

  @Test("other 4xx are never retried", arguments: [400, 401, 403, 404])
  func noRetryOn4xx(status: Int) async throws {
    server.route("/nope", .json("{}", status: status))
    let response = try await transport().get(server.baseURL.appendingPathComponent("nope"))
    #expect(response.status == status)
    #expect(server.requests(to: "/nope").count == 1)
    #expect(sleeps.all.isEmpty)
  }

  @Test(
    "Retry-After is waited when longer than the delay, up to 5 s; a longer one is handed back")
  func retryAfter() async throws {
    server.route(
      "/limited",
      responses: [
        .json("{}", status: 429, headers: ["Retry-After": "5"]),
        .json("{}", status: 429, headers: ["Retry-After": "1"]),
        .json("{}", status: 503, headers: ["Retry-After": "600"]),
        .json("{}"),
      ])
    let response = try await transport().get(server.baseURL.appendingPathComponent("limited"))
    // Ten minutes is not waited out: the caller gets the answer, and records the pause.
    #expect(response.status == 503)
    #expect(response.headers["retry-after"] == "600")
    #expect(sleeps.all == [.seconds(5), .seconds(2)])
    #expect(server.requests(to: "/limited").count == 3)
  }

  @Test("a refused connection is retried, then reported as unavailable")
  func refused() async throws {
    let closed = try ClosedPort()
    let url = closed.baseURL.appendingPathComponent("x")
    await #expect {
      _ = try await transport().get(url)
    } throws: { error in
      guard let error = error as? HTTPError, case .network(let host, _, let attempts) = error else {
        return false
      }
      return host == "127.0.0.1" && error.exitCode == .unavailable && attempts == 4
        && error.message.hasSuffix("connection refused after 4 attempts")
    }
    #expect(sleeps.all.count == 3)
    withExtendedLifetime(closed) {}
  }

  @Test("a request slower than the timeout fails as a timeout, through the injected timing")
  func timeout() async throws {
    // The server never answers; the timeout passes once the request is in.
    server.route("/slow", .held)
    let server = self.server
    let transport = HTTPTransport(
      client: URLSessionHTTPClient(), retryPolicy: RetryPolicy(retries: 0),
      timeout: .milliseconds(300),
      timing: .test(
        limit: passing(.milliseconds(300)) { !server.requests(to: "/slow").isEmpty }))
    await #expect {
      _ = try await transport.get(server.baseURL.appendingPathComponent("slow"))
    } throws: { error in
      (error as? HTTPError)?.message.contains("within 0.3 s (NEWS_TIMEOUT)") == true
    }
  }

  @Test("a request slower than the timeout fails as a timeout, on the process's own timer")
  func timeoutOnTheTimer() async throws {
    server.route("/slow", .held)
    let transport = HTTPTransport(
      client: try #require(CurlHTTPClient()), retryPolicy: RetryPolicy(retries: 0),
      timeout: .milliseconds(100), timing: .live)
    await #expect {
      _ = try await transport.get(server.baseURL.appendingPathComponent("slow"))
    } throws: { error in
      (error as? HTTPError)?.message.contains("within 0.1 s (NEWS_TIMEOUT)") == true
    }
  }

  @Test(
    "a client that keeps the timeout to the millisecond is not raced: its timeout is the limit, no wait on the timer"
  )
  func clientKeepsTheTimeout() async throws {
    let timer = LimitTimer()
    var timing = Timing.live
    timing.limit = { try await timer.sleep(for: $0) }
    timing.limitTimer = timer
    let client = HeldClient(timesOutPrecisely: true)
    let transport = HTTPTransport(
      client: client, retryPolicy: RetryPolicy(retries: 0), timeout: .milliseconds(250),
      timing: timing)
    let request = Task { try await transport.get(URL(string: "https://example.com/slow")!) }
    var arrivals = client.arrivals.makeAsyncIterator()
    let sent = try #require(await arrivals.next())
    #expect(sent.timeout == 0.25)
    #expect(timer.pendingCount == 0, "nothing waits on the timer")
    client.release.yield(())
    await #expect {
      _ = try await request.value
    } throws: { error in
      (error as? HTTPError)?.message.contains("within 0.25 s (NEWS_TIMEOUT)") == true
    }
  }

  @Test(
    "a limit is said as it was set, to the millisecond",
    arguments: [(30_000, "30"), (2_500, "2.5"), (250, "0.25"), (1, "0.001"), (12_345, "12.345")])
  func limitText(milliseconds: Int, text: String) {
    #expect(Duration.milliseconds(milliseconds).secondsText == text)
  }

  @Test("a body over the size cap is refused, and not asked for again")
  func sizeCap() async throws {
    server.route("/big", LoopbackServer.Response(body: Data(count: 4096)))
    let transport = HTTPTransport(
      client: URLSessionHTTPClient(maximumBodySize: 1024), retryPolicy: RetryPolicy(),
      timing: .test())
    await #expect(throws: HTTPError.responseTooLarge(host: "127.0.0.1", limit: 1024)) {
      _ = try await transport.get(server.baseURL.appendingPathComponent("big"))
    }
    #expect(server.requests(to: "/big").count == 1)
    #expect(
      HTTPError.responseTooLarge(host: "h", limit: 1024).message
        == "h sent more than 1024 bytes; refusing the response")
  }

  @Test("independent requests run concurrently")
  func concurrency() async throws {
    let barrier = ArrivalBarrier(count: 3)
    server.route("/slow") { _ in
      barrier.arrive()
      return .json("{}")
    }
    let transport = transport()
    let url = server.baseURL.appendingPathComponent("slow")
    try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<3 { group.addTask { try await transport.get(url).status } }
      for try await status in group { #expect(status == 200) }
    }
    #expect(barrier.metTogether)
  }

  @Test("concurrency is bounded per host, not across hosts")
  func boundedPerHost() async throws {
    // No clock: the first call on a host holds its slot until it is let go; the second on the
    // same host is then seen waiting, and has not started; another host's call runs meanwhile.
    let limiter = ConcurrencyLimiter(total: 10, perHost: 1)
    let (held, hold) = AsyncStream.makeStream(of: Void.self)
    let started = Recorder<String>()
    let first = Task {
      try await limiter.run(host: "a") {
        started.record("a1")
        for await _ in held { break }
      }
    }
    var spins = 0
    while started.all.isEmpty, spins < 100_000 {
      await Task.yield()
      spins += 1
    }
    try #require(started.all == ["a1"])
    let second = Task { try await limiter.run(host: "a") { started.record("a2") } }
    try await limiter.run(host: "b") { started.record("b1") }
    // Bounded: a limiter that never queues the second call fails below instead of hanging.
    var yields = 0
    while limiter.waitingCount == 0, yields < 100_000 {
      await Task.yield()
      yields += 1
    }
    #expect(limiter.waitingCount == 1)
    #expect(started.all == ["a1", "b1"])
    hold.yield()
    try await first.value
    try await second.value
    #expect(started.all == ["a1", "b1", "a2"])
  }

  @Test("waiters are served first come, first served among the hosts with room")
  func firstComeFirstServed() async throws {
    // Two slots, one a host, both held (a1, b1); then a2, a3, b2, c1 queue in that order. Each
    // slot let go goes to the earliest waiter whose host has room: a's slot to a2 then a3 (c1
    // came later), then c1; b2 only once b1 is let go.
    let limiter = ConcurrencyLimiter(total: 2, perHost: 1)
    let started = Recorder<String>()
    let (heldA, holdA) = AsyncStream.makeStream(of: Void.self)
    let (heldB, holdB) = AsyncStream.makeStream(of: Void.self)
    func begin(_ host: String, _ name: String, _ held: AsyncStream<Void>?) -> Task<
      Void, Never
    > {
      Task {
        await limiter.runUnfailing(host: host) {
          started.record(name)
          if let held { for await _ in held { break } }
        }
      }
    }
    func until(_ condition: () async -> Bool) async {
      var spins = 0
      while await !condition(), spins < 100_000 {
        await Task.yield()
        spins += 1
      }
    }
    let a1 = begin("a", "a1", heldA)
    let b1 = begin("b", "b1", heldB)
    await until { started.all.count == 2 }
    var waiters: [Task<Void, Never>] = []
    for (count, (host, name)) in [("a", "a2"), ("a", "a3"), ("b", "b2"), ("c", "c1")].enumerated() {
      waiters.append(begin(host, name, nil))
      await until { limiter.waitingCount == count + 1 }
    }
    #expect(limiter.waitingCount == 4)
    holdA.yield()
    await a1.value
    await until { started.all.count == 5 }
    #expect(Array(started.all.dropFirst(2)) == ["a2", "a3", "c1"])
    holdB.yield()
    await b1.value
    for waiter in waiters { await waiter.value }
    #expect(started.all.last == "b2")
    #expect(limiter.waitingCount == 0)
  }

  @Test("ten thousand waiters on one host all run, one slot at a time")
  func manyWaiters() async {
    let limiter = ConcurrencyLimiter(total: 3, perHost: 3)
    let ran = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<10_000 {
        group.addTask { await limiter.runUnfailing(host: "") { 1 } }
      }
      return await group.reduce(0, +)
    }
    #expect(ran == 10_000)
    #expect(limiter.waitingCount == 0)
  }

  @Test(
    "callers on many hosts at once never pass either bound, and every one runs",
    arguments: [(total: 4, perHost: 1), (total: 8, perHost: 3), (total: 2, perHost: 5)])
  func boundsUnderLoad(total: Int, perHost: Int) async {
    // Each caller holds its slot across suspensions (yields), so that slots are given back
    // while others are being taken on other threads; the counts are taken under one lock.
    let limiter = ConcurrencyLimiter(total: total, perHost: perHost)
    let counts = LimiterCounts()
    let ran = await withTaskGroup(of: Int.self) { group in
      for caller in 0..<2_000 {
        let host = caller % 7
        group.addTask {
          await limiter.runUnfailing(host: "host-\(host)") {
            counts.state.withLock { counts in
              counts.running += 1
              counts.byHost[host, default: 0] += 1
              counts.mostRunning = max(counts.mostRunning, counts.running)
              counts.mostOnAHost = max(counts.mostOnAHost, counts.byHost[host]!)
            }
            for _ in 0..<(caller % 3) { await Task.yield() }
            counts.state.withLock { counts in
              counts.running -= 1
              counts.byHost[host]! -= 1
            }
            return 1
          }
        }
      }
      return await group.reduce(0, +)
    }
    #expect(ran == 2_000)
    let seen = counts.state.withLock { $0 }
    #expect(seen.mostRunning <= total)
    #expect(seen.mostOnAHost <= perHost)
    #expect(seen.running == 0)
    #expect(limiter.waitingCount == 0)
  }

  @Test("every attempt is reported to the observer")
  func observer() async throws {
    server.route("/x", responses: [.json("{}", status: 500), .json("{}")])
    let seen = Recorder<RequestMetrics>()
    let transport = transport().observed { seen.record($0) }
    _ = try await transport.get(server.baseURL.appendingPathComponent("x"))
    #expect(seen.all.map(\.status) == [500, 200])
  }

  @Test(
    "retry policy decisions",
    arguments: [
      (500, true), (503, true), (599, true), (429, true), (404, false), (400, false),
      (200, false), (304, false),
    ])
  func policy(status: Int, retried: Bool) {
    #expect(RetryPolicy().shouldRetry(status: status) == retried)
  }

  @Test("Retry-After as an HTTP date")
  func retryAfterDate() throws {
    let now = Date(timeIntervalSince1970: 1_000_000_000)
    let response = HTTPResponse(
      status: 503, headers: ["retry-after": "Sun, 09 Sep 2001 01:47:10 GMT"], body: Data())
    #expect(
      RetryPolicy(maximumRetryAfter: .seconds(60)).pause(after: response, now: now)
        == .seconds(30))
    #expect(RetryPolicy().asksForLongPause(response, now: now))
  }

  @Test("a name that does not resolve is not retried: it will not resolve a second later")
  func unresolvedNotRetried() {
    let policy = RetryPolicy()
    #expect(!policy.shouldRetry(error: URLError(.cannotFindHost)))
    #expect(!policy.shouldRetry(error: URLError(.dnsLookupFailed)))
    #expect(policy.shouldRetry(error: URLError(.cannotConnectToHost)))
  }
}

/// How many callers of a limiter run at once, in all and on each host, and the most seen.
private final class LimiterCounts: Sendable {
  struct Counts {
    var running = 0
    var byHost: [Int: Int] = [:]
    var mostRunning = 0
    var mostOnAHost = 0
  }
  let state = Mutex(Counts())
}
