import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A request waiting before its next attempt, for a transient notice on a terminal.
public struct RetryNotice: Sendable, Equatable, CustomStringConvertible {
  /// The host asked.
  public var host: String
  /// How long the wait is.
  public var delay: Duration
  /// The attempt about to be made (2 or more).
  public var attempt: Int
  /// How many attempts there are in all.
  public var attempts: Int
  /// `true` when the wait starts, `false` when it is over.
  public var isWaiting: Bool

  /// `retrying newsapi.org in 2 s (attempt 2 of 4)…`.
  public var description: String {
    "retrying \(host) in \(delay.secondsText) s (attempt \(attempt) of \(attempts))…"
  }
}
