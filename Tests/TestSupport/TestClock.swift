import FeedParsing
import Foundation
import NewsCore
import Synchronization
import Testing

/// A clock whose time moves only when a test advances it: sleepers wait until then (or until they
/// are cancelled). Nothing a test does depends on how fast the machine is.
public final class TestClock: Clock, Sendable {
  /// A point on the test clock: the time since it started.
  public struct Instant: InstantProtocol {
    /// Time since the clock started.
    public var offset: Duration

    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private struct Sleeper {
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant(offset: .zero)
    var sleepers: [Int: Sleeper] = [:]
    var nextID = 0
    /// Those awaiting a number of sleepers (``sleepers(_:)``).
    var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// The waiters whose number of sleepers is the number now, taken out to be resumed.
    mutating func ready() -> [CheckedContinuation<Void, Never>] {
      let count = sleepers.count
      let due = waiters.filter { $0.count == count }.map(\.continuation)
      waiters.removeAll { $0.count == count }
      return due
    }
  }

  private let state = Mutex(State())

  /// Creates a clock at zero.
  public init() {}

  public var now: Instant { state.withLock { $0.now } }
  public var minimumResolution: Duration { .zero }

  public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    let id = state.withLock { state -> Int in
      defer { state.nextID += 1 }
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let (due, ready) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
          if deadline <= state.now || Task.isCancelled { return (true, []) }
          state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
          return (false, state.ready())
        }
        for waiter in ready { waiter.resume() }
        if due {
          if Task.isCancelled {
            continuation.resume(throwing: CancellationError())
          } else {
            continuation.resume()
          }
        }
      }
    } onCancel: {
      let (sleeper, ready) = state.withLock { state in
        (state.sleepers.removeValue(forKey: id), state.ready())
      }
      sleeper?.continuation.resume(throwing: CancellationError())
      for waiter in ready { waiter.resume() }
    }
  }

  /// Moves time forward by `duration`, waking every sleeper whose time has come.
  public func advance(by duration: Duration) {
    let (due, ready) = state.withLock { state -> ([Sleeper], [CheckedContinuation<Void, Never>]) in
      state.now = state.now.advanced(by: duration)
      let due = state.sleepers.filter { $0.value.deadline <= state.now }
      for id in due.keys { state.sleepers[id] = nil }
      return (Array(due.values), state.ready())
    }
    for sleeper in due { sleeper.continuation.resume() }
    for waiter in ready { waiter.resume() }
  }

  /// Returns once exactly `count` sleepers wait (at once when they do now): a test waits on the
  /// code's own waits rather than on the clock of the machine.
  public func sleepers(_ count: Int) async {
    await withCheckedContinuation { continuation in
      let now = state.withLock { state -> Bool in
        if state.sleepers.count == count { return true }
        state.waiters.append((count, continuation))
        return false
      }
      if now { continuation.resume() }
    }
  }

  /// How many sleepers are waiting.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }
}

extension Timing {
  /// Time for tests: a ``TestClock`` to measure with, a fixed date, pauses that pass at once
  /// (recorded in `pauses`), and limits that pass only when `limit` says (never, by default).
  public static func test(
    now: Date = Date(timeIntervalSince1970: 1_700_000_000), pauses: Recorder<Duration>? = nil,
    limit: Sleeper? = nil
  ) -> Timing {
    let clock = TestClock()
    return Timing(
      clock: clock, now: { now }, pause: { pauses?.record($0) },
      limit: limit ?? { try await clock.sleep(for: $0) })
  }
}

/// Limits for a test about one of them: a wait of `duration` passes once `condition` holds (the
/// hanging request has arrived); every other limit (a request's timeout, another deadline) never
/// passes. Every wait asked for is recorded in `asked`, and all of them end when cancelled.
public func passing(
  _ duration: Duration, asked: Recorder<Duration>? = nil,
  when condition: @escaping @Sendable () -> Bool
) -> Sleeper {
  { limit in
    asked?.record(limit)
    guard limit == duration else {
      try await TestClock().sleep(for: limit)
      return
    }
    // Bounded (20 s, for a broken run): the run fails, saying so, and nothing hangs.
    for _ in 0..<20_000 where !condition() { try await Task.sleep(for: .milliseconds(1)) }
    if !condition() {
      Issue.record("the condition of a \(duration) limit never held within 20 s")
    }
  }
}
