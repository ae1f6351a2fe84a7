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
  let worker = Task { try await work() }
  let timer = Task { try await sleep(limit) }
  let settled = FirstEnding()
  return try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<T?, any Error>) in
      Task {
        let result = await worker.result
        guard settled.claim() else { return }
        timer.cancel()
        continuation.resume(with: result.map { Optional($0) })
      }
      Task {
        let ended = await timer.result
        guard settled.claim() else { return }
        worker.cancel()
        switch ended {
        case .success: continuation.resume(returning: nil)
        case .failure(let error): continuation.resume(throwing: error)
        }
      }
    }
  } onCancel: {
    worker.cancel()
    timer.cancel()
  }
}

/// Which of two endings came first: only the first to claim it resumes the caller.
private final class FirstEnding: Sendable {
  private let done = Mutex(false)

  /// Whether this is the first claim.
  func claim() -> Bool {
    done.withLock { done in
      defer { done = true }
      return !done
    }
  }
}
