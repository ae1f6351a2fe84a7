import Foundation

/// A pause that tests can make instant.
public typealias Sleeper = @Sendable (Duration) async throws -> Void

/// Time, injected once: what the clock says and how waits are waited out. Nothing in NewsCore
/// reads a clock or sleeps on its own; ``live`` is the real thing, tests build their own.
///
/// Pauses and limits are both waits on the same clock in ``live``; they are given apart because
/// tests want pauses between retries to pass at once (and be recorded) while limits (a request's
/// timeout, a source's deadline, the analytics flush) pass only when the test says so.
public struct Timing: Sendable {
  /// A monotonic clock, for measuring how long things take.
  public var clock: any Clock<Duration>
  /// The current date, for timestamps and ages.
  public var now: @Sendable () -> Date
  /// Waits between two attempts of a request.
  public var pause: Sleeper
  /// Waits out a limit: a request's timeout, a deadline, the analytics flush.
  public var limit: Sleeper
  /// The timer ``limit`` waits on, when it is the process's own (``live``): a race of work
  /// against a limit then waits on it without a task (``firstOfWithoutWaiting(_:orAfter:timer:)``).
  var limitTimer: LimitTimer?

  private let stopwatch: @Sendable () -> @Sendable () -> Duration

  /// Creates a timing from its parts.
  public init<C: Clock>(
    clock: C, now: @escaping @Sendable () -> Date, pause: @escaping Sleeper,
    limit: @escaping Sleeper
  ) where C.Duration == Duration {
    self.clock = clock
    self.now = now
    self.pause = pause
    self.limit = limit
    stopwatch = {
      let start = clock.now
      return { start.duration(to: clock.now) }
    }
  }

  /// The machine's clocks: `ContinuousClock` and the system date; limits are waited out by
  /// the process's one ``LimitTimer``.
  public static var live: Timing {
    let clock = ContinuousClock()
    var timing = Timing(
      clock: clock, now: Date.init, pause: { try await clock.sleep(for: $0) },
      limit: { try await LimitTimer.shared.sleep(for: $0) })
    timing.limitTimer = .shared
    return timing
  }

  /// Now, on ``clock``: the mark tells how long ago it was made.
  public func mark() -> TimingMark {
    TimingMark(elapsed: stopwatch())
  }
}

/// A start on a ``Timing``'s clock: how long ago it was.
public struct TimingMark: Sendable {
  /// The time since the mark was made.
  public let elapsed: @Sendable () -> Duration
}
