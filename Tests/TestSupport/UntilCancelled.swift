import Synchronization

/// Waits until the calling task is cancelled, then throws `CancellationError`: a hook that must
/// hold its caller until the run under test stops it, without a timer that could ever end it.
public func untilCancelled() async throws {
  let waiting = Mutex<CheckedContinuation<Void, Never>?>(nil)
  await withTaskCancellationHandler {
    await withCheckedContinuation { continuation in
      // Cancelled before the continuation was kept: resumed at once.
      let resumeNow = waiting.withLock { held in
        if Task.isCancelled { return true }
        held = continuation
        return false
      }
      if resumeNow { continuation.resume() }
    }
  } onCancel: {
    waiting.withLock { held in
      held?.resume()
      held = nil
    }
  }
  throw CancellationError()
}
