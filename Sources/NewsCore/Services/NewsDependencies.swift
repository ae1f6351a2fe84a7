import Foundation

/// The outside world NewsCore works with, built once at the edge (``live`` in the program, a
/// test's own values in tests) and handed to ``NewsServices``.
public struct NewsDependencies: Sendable {
  /// The network.
  public var httpClient: any HTTPClient
  /// Time: the clock, the date, pauses and limits.
  public var timing: Timing
  /// Random bytes: nonces, new keys, temporary file names.
  public var randomBytes: @Sendable (Int) -> [UInt8]
  /// The time zone whose days a query's `date:` means and dates are shown in (`TZ`): the one
  /// place every query of a run takes it from.
  public var timeZone: TimeZone
  /// Told about every HTTP attempt (analytics `load` events).
  public var onRequest: (@Sendable (RequestMetrics) -> Void)?
  /// Told when a request waits before a retry, and when the wait is over.
  public var onRetry: (@Sendable (RetryNotice) -> Void)?

  /// Creates the dependencies; each is given, none is reached globally.
  public init(
    httpClient: any HTTPClient, timing: Timing, randomBytes: @escaping @Sendable (Int) -> [UInt8],
    timeZone: TimeZone, onRequest: (@Sendable (RequestMetrics) -> Void)? = nil,
    onRetry: (@Sendable (RetryNotice) -> Void)? = nil
  ) {
    self.httpClient = httpClient
    self.timing = timing
    self.randomBytes = randomBytes
    self.timeZone = timeZone
    self.onRequest = onRequest
    self.onRetry = onRetry
  }
}
