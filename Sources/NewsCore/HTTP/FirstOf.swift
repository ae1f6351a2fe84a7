import Synchronization

/// The value of `work`, or `nil` when `sleep(limit)` ends first: then `work` is cancelled (and
/// awaited, as a task group awaits its children): the transport's timeout, the counts of `show`,
/// the analytics flush. Deadlines use ``firstOfWithoutWaiting(_:orAfter:sleep:)``.
///
/// - Throws: what `work` throws, or what `sleep` throws (a cancelled wait), whichever ends first.
func firstOf<T: Sendable>(
  _ work: @escaping @Sendable () async throws -> T, orAfter limit: Duration,
  sleep: @escaping Sleeper
) async throws -> T? {
  try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask { try await work() }
    group.addTask {
      try await sleep(limit)
      return nil
    }
    defer { group.cancelAll() }
    return try await group.next()!
  }
}

/// ``firstOf(_:orAfter:sleep:)`` that does not wait for `work` once the limit has passed: `work`
/// is cancelled and left to end on its own. For deadlines, whose work may be a parse or an
/// extraction that cannot stop half way: the caller goes on at its deadline, whatever the work
/// still does.
///
/// - Throws: what `work` throws, or `CancellationError` when the caller is cancelled first.
func firstOfWithoutWaiting<T: Sendable>(
  _ work: @escaping @Sendable () async throws -> T, orAfter limit: Duration,
  sleep: @escaping Sleeper
) async throws -> T? {
  // Two tasks, and the first to end resumes the caller: a refresh runs one such race a source.
  try await racing { race in
    [
      race.task { try await work() },
      race.task {
        try await sleep(limit)
        return nil
      },
    ]
  }
}

/// ``firstOfWithoutWaiting(_:orAfter:sleep:)`` whose limit is an entry of `timer`, not a task
/// sleeping: one task a race, where a refresh runs two races a source (its deadline, its
/// request's timeout).
func firstOfWithoutWaiting<T: Sendable>(
  _ work: @escaping @Sendable () async throws -> T, orAfter limit: Duration, timer: LimitTimer
) async throws -> T? {
  try await racing { race in
    let wait = timer.schedule(after: limit) { race.end(.success(nil)) }
    return [
      race.task {
        defer { timer.cancel(wait) }
        return try await work()
      }
    ]
  }
}

/// Runs the race `start` begins (its tasks, each ending it with what it answers), until the
/// first end; a cancelled caller cancels its tasks.
private func racing<T: Sendable>(_ start: (Race<T>) -> [Task<Void, Never>]) async throws -> T? {
  let race = Race<T>()
  return try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<T?, any Error>) in
      race.begin(continuation)
      race.hold(start(race))
    }
  } onCancel: {
    race.cancel()
  }
}

/// The work and the limit of ``firstOfWithoutWaiting(_:orAfter:sleep:)``: the first to end
/// resumes the caller and cancels the other; a cancelled caller cancels both.
private final class Race<T: Sendable>: Sendable {
  private struct State {
    var continuation: CheckedContinuation<T?, any Error>?
    var tasks: [Task<Void, Never>] = []
    var over = false
    var cancelled = false
  }

  private let state = Mutex(State())

  func begin(_ continuation: CheckedContinuation<T?, any Error>) {
    state.withLock { $0.continuation = continuation }
  }

  /// Keeps the race's tasks, to cancel; at once when the race is already over or the caller
  /// cancelled.
  func hold(_ tasks: [Task<Void, Never>]) {
    let stop = state.withLock { state in
      state.tasks = tasks
      return state.over || state.cancelled
    }
    if stop {
      for task in tasks { task.cancel() }
    }
  }

  /// A task that ends the race with what `body` answers or throws.
  func task(_ body: @escaping @Sendable () async throws -> T?) -> Task<Void, Never> {
    Task {
      do {
        end(.success(try await body()))
      } catch {
        end(.failure(error))
      }
    }
  }

  /// Ends the race with `result` if nothing ended it before.
  func end(_ result: Result<T?, any Error>) {
    let (continuation, tasks) = state.withLock { state in
      defer {
        state.over = true
        state.continuation = nil
      }
      return (state.over ? nil : state.continuation, state.tasks)
    }
    guard let continuation else { return }
    for task in tasks { task.cancel() }
    continuation.resume(with: result)
  }

  /// The caller was cancelled: both are stopped, and the first to end resumes it.
  func cancel() {
    let tasks = state.withLock { state in
      state.cancelled = true
      return state.over ? [] : state.tasks
    }
    for task in tasks { task.cancel() }
  }
}
