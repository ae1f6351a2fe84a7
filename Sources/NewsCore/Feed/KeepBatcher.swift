import Foundation

/// Keeps the articles of the sources that answer around the same time in one commit of the store
/// (``ArticleStore/keep(_:)``): while one commit is written, the sources answering meanwhile wait
/// and go together into the next, so a refresh of many sources rewrites the segment manifest
/// about once per batch rather than once per source (its cost grew with the store: the manifest
/// lists every segment). Commits run on the ``StoreWriter`` queue.
final class KeepBatcher: @unchecked Sendable {
  // @unchecked: `pending`, `draining` and `onQueued` are read and written under `lock` only.
  private struct Request {
    var items: FeedItemPack
    var provider: String
    var done: CheckedContinuation<String?, Never>
  }

  private let store: ArticleStore
  private let lock = NSLock()
  private var pending: [Request] = []
  private var onQueued: (@Sendable (Int) -> Void)?
  private var draining = false

  /// The most sources one commit keeps: what a commit holds decoded, whatever waits.
  static let maximumBatch = 64

  init(store: ArticleStore) {
    self.store = store
  }

  /// How many sources wait for a commit (tests watch the back-pressure with it).
  var pendingCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return pending.count
  }

  /// Tells `observe` how many sources wait each time one more does (tests wait on it rather
  /// than on the clock).
  func observeQueued(_ observe: @escaping @Sendable (Int) -> Void) {
    lock.lock()
    onQueued = observe
    lock.unlock()
  }

  /// Keeps the `items` of `provider` as articles with the others waiting; `nil` once stored,
  /// else why not. They wait packed, and are decoded when their commit is written.
  func keep(_ items: FeedItemPack, provider: String) async -> String? {
    await withCheckedContinuation { continuation in
      lock.lock()
      pending.append(Request(items: items, provider: provider, done: continuation))
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
      // At most `maximumBatch` sources a commit: a commit decodes its batch's items at once.
      let batch = Array(pending.prefix(Self.maximumBatch))
      pending.removeFirst(batch.count)
      if batch.isEmpty { draining = false }
      lock.unlock()
      guard !batch.isEmpty else { return }
      var failure: String?
      do {
        try store.keep(batch.map { ($0.items.items.map(\.article), $0.provider) })
      } catch {
        failure = (error as? any NewsError)?.message ?? String(describing: error)
      }
      for request in batch { request.done.resume(returning: failure) }
    }
  }
}
