import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The one way the program talks HTTP: every client sends its requests through here.
///
/// It sets `User-Agent: news/<version>` and the per-request timeout, bounds concurrency overall
/// and per host, applies the ``RetryPolicy`` with an injected ``Sleeper`` and reports each attempt
/// to an observer (analytics). A final 5xx or 429 is returned, not thrown, so each client can read
/// the error body its API sends.
public struct HTTPTransport: Sendable {
  private let client: any HTTPClient
  private let retryPolicy: RetryPolicy
  private let timeout: Duration
  private let timing: Timing
  private var observer: (@Sendable (RequestMetrics) -> Void)?
  private let onRetry: (@Sendable (RetryNotice) -> Void)?
  private let limiter: ConcurrencyLimiter
  /// The client ends a request at the timeout itself (``HTTPClient/timesOutPrecisely``), on
  /// the process's own time: nothing races it. Limits a test injects are raced, to pass when
  /// the test says.
  private let clientTimesOut: Bool
  /// How many requests run at once, in all.
  public let maximumConcurrentRequests: Int

  /// Creates a transport: `timing` measures attempts, pauses between them and waits out the
  /// timeout.
  public init(
    client: any HTTPClient, retryPolicy: RetryPolicy, timeout: Duration = .seconds(15),
    timing: Timing, maximumConcurrentRequests: Int = 8, maximumConcurrentRequestsPerHost: Int = 4,
    observer: (@Sendable (RequestMetrics) -> Void)? = nil,
    onRetry: (@Sendable (RetryNotice) -> Void)? = nil
  ) {
    self.onRetry = onRetry
    self.client = client
    self.retryPolicy = retryPolicy
    self.timeout = timeout
    self.timing = timing
    self.observer = observer
    self.maximumConcurrentRequests = max(1, maximumConcurrentRequests)
    limiter = ConcurrencyLimiter(
      total: maximumConcurrentRequests, perHost: maximumConcurrentRequestsPerHost)
    clientTimesOut = timing.limitTimer != nil && client.timesOutPrecisely
  }

  /// The same transport reporting each attempt to `observer` as well.
  public func observed(by observer: @escaping @Sendable (RequestMetrics) -> Void) -> HTTPTransport {
    var copy = self
    let previous = self.observer
    copy.observer = { metrics in
      previous?(metrics)
      observer(metrics)
    }
    return copy
  }

  /// Sends a GET, retrying as the policy says.
  ///
  /// - Returns: the final response, which may still be an error status.
  /// - Throws: ``HTTPError`` when no response came after every attempt; `CancellationError`.
  public func get(_ url: URL, headers: [String: String] = [:]) async throws -> HTTPResponse {
    try await send("GET", url, headers: headers, body: nil)
  }

  /// Sends a POST of an HTML form (`application/x-www-form-urlencoded`), retrying as the policy
  /// says: for the requests an account's API takes in a body (a password, marks), which are safe
  /// to send again.
  ///
  /// - Returns: the final response, which may still be an error status.
  public func post(_ url: URL, form: FormBody, headers: [String: String] = [:]) async throws
    -> HTTPResponse
  {
    var headers = headers
    headers["Content-Type"] = FormBody.contentType
    return try await send("POST", url, headers: headers, body: form.encoded)
  }

  /// Sends `method` (`PUT`, `DELETE`, `POST`, …) with a JSON body, or none, retrying as the
  /// policy says: for the REST APIs of accounts (Miniflux, Nextcloud News, Tiny Tiny RSS,
  /// Feedbin), whose changes are safe to send again.
  ///
  /// - Returns: the final response, which may still be an error status.
  public func send(
    _ method: String, _ url: URL, json body: Data?, headers: [String: String] = [:]
  ) async throws -> HTTPResponse {
    var headers = headers
    if body != nil { headers["Content-Type"] = "application/json" }
    return try await send(method, url, headers: headers, body: body)
  }

  /// Sends a GET whose body goes to `body` as it arrives (a download): once, within the
  /// concurrency limits; the timeout is the longest wait for a byte, not the whole transfer.
  ///
  /// - Returns: the final response, its body empty (it went to `body`).
  /// - Throws: ``HTTPError``, what `body` threw, `CancellationError`.
  public func stream(_ url: URL, headers: [String: String] = [:], into body: BodyStream)
    async throws -> HTTPResponse
  {
    var request = request("GET", url, headers: headers, body: nil)
    request.timeout = max(timeout.seconds.rounded(.up), 1)
    let host = url.host ?? "?"
    let start = timing.mark()
    do {
      let client = self.client
      let response = try await limiter.run(host: host) {
        try Task.checkCancellation()
        return try await client.stream(request, into: body)
      }
      observer?(RequestMetrics(url: url, duration: start.elapsed(), status: response.status))
      return HTTPResponse(
        status: response.status, headers: response.headers, body: Data(), attempts: 1,
        url: response.url ?? url)
    } catch {
      if error is CancellationError || Task.isCancelled { throw CancellationError() }
      observer?(RequestMetrics(url: url, duration: start.elapsed(), status: nil))
      if error is URLError { throw Self.failure(error, host: host, timeout: timeout, attempts: 1) }
      throw error
    }
  }

  private func request(_ method: String, _ url: URL, headers: [String: String], body: Data?)
    -> OutgoingRequest
  {
    // A name given twice in another case is one field, the caller's value winning, as
    // Foundation's `setValue` makes it.
    var fields = ["User-Agent": "news/\(NewsVersion.current)", "Accept": "application/json"]
    for (name, value) in headers {
      for key in fields.keys where Self.sameName(key, name) { fields[key] = nil }
      fields[name] = value
    }
    // The platform's timeout is a backstop only: on Linux it is rounded to whole seconds (0.5
    // becomes 0, an instant failure), so the precise limit is enforced by `sendWithTimeout`;
    // unless the client keeps it to the millisecond.
    return OutgoingRequest(
      method: method, url: url, headers: fields, body: body,
      timeout: clientTimesOut ? timeout.seconds : (timeout.seconds + 1).rounded(.up))
  }

  /// Whether two header names are one: HTTP's names are ASCII, their letters compared without
  /// case (Foundation's `caseInsensitiveCompare`, a name at a time, was a fiftieth of a refresh
  /// where every source answers 304).
  static func sameName(_ one: String, _ other: String) -> Bool {
    func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
    return one.utf8.count == other.utf8.count
      && zip(one.utf8, other.utf8).allSatisfy { lower($0) == lower($1) }
  }

  private func send(_ method: String, _ url: URL, headers: [String: String], body: Data?)
    async throws -> HTTPResponse
  {
    let request = request(method, url, headers: headers, body: body)
    let host = url.host ?? "?"

    var attempt = 0
    while true {
      attempt += 1
      try Task.checkCancellation()
      let start = timing.mark()
      do {
        var response = try await limiter.run(host: host) {
          // Cancelled while waiting for a slot (a deadline passed): nothing is sent.
          try Task.checkCancellation()
          return try await sendWithTimeout(request)
        }
        observer?(RequestMetrics(url: url, duration: start.elapsed(), status: response.status))
        if attempt <= retryPolicy.retries, retryPolicy.shouldRetry(status: response.status),
          !retryPolicy.asksForLongPause(response, now: timing.now())
        {
          try await wait(
            retryPolicy.pause(after: response, now: timing.now()), host: host, before: attempt + 1)
          continue
        }
        response.attempts = attempt
        response.url = response.url ?? url
        return response
      } catch {
        if error is CancellationError || Task.isCancelled { throw CancellationError() }
        observer?(RequestMetrics(url: url, duration: start.elapsed(), status: nil))
        if attempt <= retryPolicy.retries, retryPolicy.shouldRetry(error: error) {
          try await wait(
            retryPolicy.pause(after: nil, now: timing.now()), host: host, before: attempt + 1)
          continue
        }
        if let error = error as? HTTPError { throw error }
        throw Self.failure(error, host: host, timeout: timeout, attempts: attempt)
      }
    }
  }

  /// Sleeps before attempt `next`, telling `onRetry` when the wait starts and ends.
  private func wait(_ delay: Duration, host: String, before next: Int) async throws {
    var notice = RetryNotice(
      host: host, delay: delay, attempt: next, attempts: retryPolicy.retries + 1, isWaiting: true)
    onRetry?(notice)
    defer {
      notice.isWaiting = false
      onRetry?(notice)
    }
    try await timing.pause(delay)
  }

  private func sendWithTimeout(_ request: OutgoingRequest) async throws -> HTTPResponse {
    let client = self.client
    // The client's own limit: no task, no timer entry, the answer straight to the caller.
    if clientTimesOut { return try await client.send(request) }
    let raced =
      if let timer = timing.limitTimer {
        // The process's own timer: no task waits for the limit (the cancelled send is not
        // waited for either; the client stops it at once).
        try await firstOfWithoutWaiting(
          { try await client.send(request) }, orAfter: timeout, timer: timer)
      } else {
        try await firstOf({ try await client.send(request) }, orAfter: timeout, sleep: timing.limit)
      }
    guard let answer = raced else { throw URLError(.timedOut) }
    return answer
  }

  /// A request's failure, `error`, in the program's words.
  static func failure(_ error: any Error, host: String, timeout: Duration, attempts: Int)
    -> HTTPError
  {
    if (error as? URLError)?.code == .httpTooManyRedirects { return .redirectLoop(host: host) }
    return .network(host: host, reason: describe(error, timeout: timeout), attempts: attempts)
  }

  /// The words of ``describe(_:timeout:)`` for a server that cannot be reached at all
  /// (``HTTPError/isUnreachable``).
  static let unreachableReasons: Set<String> = [
    "connection refused", "host not found", "not connected to the internet",
  ]

  static func describe(_ error: any Error, timeout: Duration) -> String {
    guard let urlError = error as? URLError else { return String(describing: error) }
    switch urlError.code {
    case .timedOut:
      return "no answer within \(timeout.secondsText) s (NEWS_TIMEOUT)"
    case .cannotConnectToHost: return "connection refused"
    case .unsupportedURL: return "unsupported URL (only http:// and https:// are fetched)"
    case .badURL: return "not a valid URL"
    case .cannotFindHost, .dnsLookupFailed: return "host not found"
    case .networkConnectionLost: return "connection lost"
    case .notConnectedToInternet: return "not connected to the internet"
    case .badServerResponse, .zeroByteResource: return "the server closed the connection"
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
      .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid:
      return "secure connection failed (TLS)"
    default:
      // libcurl's own words for what has no Foundation code (CurlResult).
      if let reason = urlError.userInfo[NSLocalizedDescriptionKey] as? String { return reason }
      return "network error \(urlError.code.rawValue)"
    }
  }
}
