import Foundation

/// A ``Deadline`` passed before the work was done.
public struct DeadlineError: NewsError, Equatable {
  /// `no answer within 30 s (NEWS_SOURCE_DEADLINE)`.
  public var message: String

  public var exitCode: ExitCode { .unavailable }
  public var isOutage: Bool { true }
}
