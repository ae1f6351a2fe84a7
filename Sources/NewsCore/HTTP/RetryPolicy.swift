import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// When to try a request again, and how long to wait first.
///
/// Network errors (refused, reset, timeout, DNS), HTTP 5xx and 429 are retried `retries` times;
/// other 4xx never are. The pause is `delay`, or the server's `Retry-After` on 429 and 503 when that
/// is longer; a `Retry-After` longer than `maximumRetryAfter` (5 s) is not waited out: the answer
/// is handed back at once, for the caller to record (a feed source's backoff).
public struct RetryPolicy: Sendable, Equatable {
  /// How many times a failed request is tried again (so `retries + 1` attempts in all).
  public var retries: Int
  /// The pause between two attempts.
  public var delay: Duration
  /// The longest `Retry-After` that is honoured.
  public var maximumRetryAfter: Duration

  /// Creates a policy.
  public init(
    retries: Int = 3, delay: Duration = .seconds(2), maximumRetryAfter: Duration = .seconds(5)
  ) {
    self.retries = retries
    self.delay = delay
    self.maximumRetryAfter = maximumRetryAfter
  }

  /// Whether a response with `status` is worth another attempt.
  public func shouldRetry(status: Int) -> Bool {
    status == 429 || (500...599).contains(status)
  }

  /// Whether a transport error is worth another attempt.
  public func shouldRetry(error: any Error) -> Bool {
    if error is CancellationError { return false }
    // A response that is too large will be as large again: only connection failures are retried.
    if case .network? = error as? HTTPError { return true }
    guard let urlError = error as? URLError else { return false }
    switch urlError.code {
    // A host whose name does not resolve will not resolve a second later: said at once.
    case .cannotFindHost, .dnsLookupFailed:
      return false
    case .cancelled, .badURL, .unsupportedURL, .httpTooManyRedirects, .serverCertificateUntrusted,
      .serverCertificateHasBadDate, .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot,
      .clientCertificateRejected, .clientCertificateRequired, .userAuthenticationRequired:
      return false
    default:
      return true
    }
  }

  /// Whether `response` (a 429 or 503) asks, with `Retry-After`, for a pause longer than
  /// ``maximumRetryAfter``: not waited out (it would use up the caller's deadline), but handed
  /// back at once, so that the caller records when to ask again.
  public func asksForLongPause(_ response: HTTPResponse, now: Date) -> Bool {
    guard response.status == 429 || response.status == 503,
      let header = response.headers["retry-after"],
      let retryAfter = Self.parseRetryAfter(header, now: now)
    else { return false }
    return retryAfter > maximumRetryAfter
  }

  /// The pause before the next attempt after `response` (nil after a transport error).
  public func pause(after response: HTTPResponse?, now: Date) -> Duration {
    guard let response, response.status == 429 || response.status == 503,
      let header = response.headers["retry-after"],
      let retryAfter = Self.parseRetryAfter(header, now: now)
    else { return delay }
    return max(delay, min(retryAfter, maximumRetryAfter))
  }

  /// `Retry-After` is either a number of seconds or an HTTP date.
  static func parseRetryAfter(_ header: String, now: Date) -> Duration? {
    let text = header.trimmingCharacters(in: .whitespaces)
    if let seconds = Int(text), seconds >= 0 { return .seconds(seconds) }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    guard let date = formatter.date(from: text) else { return nil }
    return .milliseconds(max(0, Int(date.timeIntervalSince(now) * 1000)))
  }
}
