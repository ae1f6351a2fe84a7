import Foundation

/// An overall time limit on a piece of work (all its attempts together), waited out by an
/// injected ``Sleeper`` so that tests decide when it has passed.
public struct Deadline: Sendable {
  /// How long the work may take in all.
  public var limit: Duration
  /// The variable that sets it, named in the message when it passes.
  public var variable: String
  /// Waits out the limit.
  public var sleep: Sleeper
  /// The timer `sleep` waits on, when it is the process's own: the race then needs no task for
  /// the wait.
  var timer: LimitTimer?

  /// Creates a deadline.
  public init(_ limit: Duration, variable: String, sleep: @escaping Sleeper) {
    self.limit = limit
    self.variable = variable
    self.sleep = sleep
  }

  /// A deadline waited out as `timing` waits out its limits.
  init(_ limit: Duration, variable: String, timing: Timing) {
    self.init(limit, variable: variable, sleep: timing.limit)
    timer = timing.limitTimer
  }

  /// `no answer within 30 s (NEWS_SOURCE_DEADLINE)`.
  public var message: String {
    "no answer within \(limit.secondsText) s (\(variable))"
  }

  /// The result of `operation`, or ``DeadlineError`` when the limit passes first: the operation
  /// is cancelled then, and not waited for (a parse or an extraction that cannot stop half way
  /// ends on its own; the caller goes on at its deadline).
  public func run<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T)
    async throws -> T
  {
    let raced =
      if let timer {
        try await firstOfWithoutWaiting(operation, orAfter: limit, timer: timer)
      } else {
        try await firstOfWithoutWaiting(operation, orAfter: limit, sleep: sleep)
      }
    guard let value = raced else {
      throw DeadlineError(message: message)
    }
    return value
  }
}
