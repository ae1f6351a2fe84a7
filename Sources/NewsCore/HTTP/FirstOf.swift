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
  let race = Race<T>()
  return try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<T?, any Error>) in
      race.begin(continuation)
      let worker = Task {
        do {
          race.end(.success(try await work()))
        } catch {
          race.end(.failure(error))
        }
      }
      let timer = Task {
        do {
          try await sleep(limit)
          race.end(.success(nil))
        } catch {
          race.end(.failure(error))
        }
      }
      race.hold([worker, timer])
    }
  } onCancel: {
    race.cancel()
  }
}

/// ``firstOfWithoutWaiting(_:orAfter:sleep:)`` whose limit is an entry of `timer`, not a task
/// sleeping: one task a race, where a refresh runs two races a source (its deadline, its
/// request's timeout).
func firstOfWithoutWaiting<T: Sendable>(
  _ work: @escaping @Sendable () async throws -> T, orAfter limit: Duration, timer: LimitTimer
) async throws -> T? {
  let race = Race<T>()
  return try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<T?, any Error>) in
      race.begin(continuation)
      let wait = timer.schedule(after: limit) { race.end(.success(nil)) }
      let worker = Task {
        do {
          race.end(.success(try await work()))
        } catch {
          race.end(.failure(error))
        }
        timer.cancel(wait)
      }
      race.hold([worker])
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
