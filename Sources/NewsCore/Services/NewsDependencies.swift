import Foundation

/// The outside world NewsCore works with, built once at the edge (``live`` in the program, a
/// test's own values in tests) and handed to ``NewsServices``.
public struct NewsDependencies: Sendable {
  /// The network.
  public var httpClient: any HTTPClient
  /// Pauses between retries.
  public var sleep: Sleeper
  /// Waits out overall limits: a source's deadline, the counts' deadline.
  public var deadline: Sleeper
  /// The current date.
  public var now: @Sendable () -> Date
  /// Random bytes: nonces, new keys, temporary file names.
  public var randomBytes: @Sendable (Int) -> [UInt8]
  /// Told about every HTTP attempt (analytics `load` events).
  public var onRequest: (@Sendable (RequestMetrics) -> Void)?
  /// Told when a request waits before a retry, and when the wait is over.
  public var onRetry: (@Sendable (RetryNotice) -> Void)?

  /// Creates the dependencies; each is given, none is reached globally.
  public init(
    httpClient: any HTTPClient, sleep: @escaping Sleeper, deadline: @escaping Sleeper,
    now: @escaping @Sendable () -> Date, randomBytes: @escaping @Sendable (Int) -> [UInt8],
    onRequest: (@Sendable (RequestMetrics) -> Void)? = nil,
    onRetry: (@Sendable (RetryNotice) -> Void)? = nil
  ) {
    self.httpClient = httpClient
    self.sleep = sleep
    self.deadline = deadline
    self.now = now
    self.randomBytes = randomBytes
    self.onRequest = onRequest
    self.onRetry = onRetry
  }
}
