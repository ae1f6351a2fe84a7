import Foundation

/// Writes what the sources answering around the same time hand it in one commit: while one
/// commit is written, the requests arriving meanwhile wait and go together into the next, and
/// each learns the commit's `Outcome`. A refresh of many sources keeps their articles
/// (``ArticleStore/keep(_:)``) and writes their cache entries (``FeedCache/commit(_:)``) about
/// once a batch rather than once a source: the segment manifest lists every segment, and a file
/// a source cost the kernel a quarter of a refresh. Commits run on the ``StoreWriter`` queue.
///
/// A commit also waits, briefly, for the requests a run has announced and not yet submitted
/// (``announced(_:)``), until ``gathering`` of them are there: the sources that finish together
/// are few when parsing is the slower half, and a commit of six cost as much again as its
/// share of a commit of thirty (at 1,000 feeds, a third of a refresh's CPU).
final class CommitBatcher<Request: Sendable, Outcome: Sendable>: @unchecked Sendable {
  // @unchecked: `pending`, `draining`, `expected`, `onQueued` and `onGathering` are read and
  // written under `condition` only.
  private struct Waiting {
    var request: Request
    var done: CheckedContinuation<Outcome, Never>
  }

  private let condition = NSCondition()
  private var pending: [Waiting] = []
  private var onQueued: (@Sendable (Int) -> Void)?
  private var onGathering: (@Sendable (Int) -> Void)?
  private var draining = false
  /// Requests announced (``announced(_:)``) and not submitted yet.
  private var expected = 0
  /// The most requests one commit takes: what a commit holds decoded, whatever waits.
  let maximumBatch: Int
  /// How many requests a commit waits for while announced ones are still to come.
  let gathering: Int
  /// How long a commit waits for them at most, in seconds.
  let gatherTimeout: TimeInterval
  private let commit: @Sendable ([Request]) -> Outcome

  /// A batcher committing at most `maximumBatch` requests at once with `commit`; a commit of
  /// fewer than `gathering` waits up to `gatherTimeout` seconds for the announced requests still
  /// to come (each commit has a cost of its own: the manifest, the cache's index, a pack).
  init(
    maximumBatch: Int, gathering: Int = 1, gatherTimeout: TimeInterval = 0,
    commit: @escaping @Sendable ([Request]) -> Outcome
  ) {
    self.maximumBatch = maximumBatch
    self.gathering = min(gathering, maximumBatch)
    self.gatherTimeout = gatherTimeout
    self.commit = commit
  }

  /// How many requests wait for a commit (tests watch the back-pressure with it).
  var pendingCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return pending.count
  }

  /// Tells `observe` how many requests wait each time one more does (tests wait on it rather
  /// than on the clock).
  func observeQueued(_ observe: @escaping @Sendable (Int) -> Void) {
    condition.lock()
    onQueued = observe
    condition.unlock()
  }

  /// Tells `observe` how many requests wait each time a commit starts waiting for more (tests
  /// see the wait begin rather than time it).
  func observeGathering(_ observe: @escaping @Sendable (Int) -> Void) {
    locked { onGathering = observe }
  }

  /// Runs `body`, which submits one request at most: until it does, or ends without, a commit
  /// of fewer than ``gathering`` requests waits for it. `body` must not wait for a commit of
  /// this batcher but through ``submit(_:)``.
  func announced<T>(_ body: () async -> T) async -> T {
    let ticket = CommitTicket()
    locked { expected += 1 }
    let result = await CommitTicket.$current.withValue(ticket) { await body() }
    locked {
      if !ticket.submitted {
        expected -= 1
        condition.broadcast()
      }
    }
    return result
  }

  /// Runs `body` under the lock.
  private func locked(_ body: () -> Void) {
    condition.lock()
    defer { condition.unlock() }
    body()
  }

  /// Commits `request` with the others waiting, and answers how their commit went.
  func submit(_ request: Request) async -> Outcome {
    let ticket = CommitTicket.current
    return await withCheckedContinuation { continuation in
      condition.lock()
      pending.append(Waiting(request: request, done: continuation))
      if let ticket, !ticket.submitted {
        ticket.submitted = true
        expected -= 1
      }
      let (waiting, observe) = (pending.count, onQueued)
      let start = !draining
      draining = true
      condition.broadcast()
      condition.unlock()
      observe?(waiting)
      if start { StoreWriter.enqueue { [self] in drain() } }
    }
  }

  /// Commits what waits, batch after batch, until nothing does (on the writer's queue).
  private func drain() {
    while true {
      condition.lock()
      // Nothing waiting: nothing to gather (the writer's queue is not held for it).
      if !pending.isEmpty, pending.count < gathering, expected > 0 {
        let deadline = Date(timeIntervalSinceNow: gatherTimeout)
        onGathering?(pending.count)
        while pending.count < gathering, expected > 0 {
          if !condition.wait(until: deadline) { break }
        }
      }
      let batch = Array(pending.prefix(maximumBatch))
      pending.removeFirst(batch.count)
      if batch.isEmpty { draining = false }
      condition.unlock()
      guard !batch.isEmpty else { return }
      let outcome = commit(batch.map(\.request))
      for waiting in batch { waiting.done.resume(returning: outcome) }
    }
  }
}

/// A request announced to a ``CommitBatcher``: whether it was submitted (read and written under
/// the batcher's lock).
final class CommitTicket: @unchecked Sendable {
  var submitted = false

  /// The announcement of the task running now, if any.
  @TaskLocal static var current: CommitTicket?
}
