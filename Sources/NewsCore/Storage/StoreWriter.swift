import Dispatch

/// Where the feed's blocking store writes run (the store's lock, `fsync`): a serial queue of
/// their own. The Swift concurrency pool has one thread per core; a write blocking one of them
/// stalled every other source's network progress (a cold refresh of 200 feeds took 1.4 s more).
enum StoreWriter {
  private static let queue = DispatchQueue(label: "news.store-writes")

  /// Runs `work` on the writer's queue, not waiting for it.
  static func enqueue(_ work: @escaping @Sendable () -> Void) {
    queue.async(execute: work)
  }

  /// Runs `work` on the writer's queue and returns its result.
  static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
      queue.async { continuation.resume(returning: work()) }
    }
  }
}
