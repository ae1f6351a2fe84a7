import Foundation

/// Writes what the sources answering around the same time hand it in one commit: while one
/// commit is written, the requests arriving meanwhile wait and go together into the next, and
/// each learns the commit's `Outcome`. A refresh of many sources keeps their articles
/// (``ArticleStore/keep(_:)``) and writes their cache entries (``FeedCache/commit(_:)``) about
/// once a batch rather than once a source: the segment manifest lists every segment, and a file
/// a source cost the kernel a quarter of a refresh. Commits run on the ``StoreWriter`` queue.
final class CommitBatcher<Request: Sendable, Outcome: Sendable>: @unchecked Sendable {
  // @unchecked: `pending`, `draining` and `onQueued` are read and written under `lock` only.
  private struct Waiting {
    var request: Request
    var done: CheckedContinuation<Outcome, Never>
  }

  private let lock = NSLock()
  private var pending: [Waiting] = []
  private var onQueued: (@Sendable (Int) -> Void)?
  private var draining = false
  /// The most requests one commit takes: what a commit holds decoded, whatever waits.
  let maximumBatch: Int
  private let commit: @Sendable ([Request]) -> Outcome

  /// A batcher committing at most `maximumBatch` requests at once with `commit`.
  init(maximumBatch: Int, commit: @escaping @Sendable ([Request]) -> Outcome) {
    self.maximumBatch = maximumBatch
    self.commit = commit
  }

  /// How many requests wait for a commit (tests watch the back-pressure with it).
  var pendingCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return pending.count
  }

  /// Tells `observe` how many requests wait each time one more does (tests wait on it rather
  /// than on the clock).
  func observeQueued(_ observe: @escaping @Sendable (Int) -> Void) {
    lock.lock()
    onQueued = observe
    lock.unlock()
  }

  /// Commits `request` with the others waiting, and answers how their commit went.
  func submit(_ request: Request) async -> Outcome {
    await withCheckedContinuation { continuation in
      lock.lock()
      pending.append(Waiting(request: request, done: continuation))
      let (waiting, observe) = (pending.count, onQueued)
      let start = !draining
      draining = true
      lock.unlock()
      observe?(waiting)
      if start { StoreWriter.enqueue { [self] in drain() } }
    }
  }

  /// Commits what waits, batch after batch, until nothing does (on the writer's queue).
  private func drain() {
    while true {
      lock.lock()
      let batch = Array(pending.prefix(maximumBatch))
      pending.removeFirst(batch.count)
      if batch.isEmpty { draining = false }
      lock.unlock()
      guard !batch.isEmpty else { return }
      let outcome = commit(batch.map(\.request))
      for waiting in batch { waiting.done.resume(returning: outcome) }
    }
  }
}
