import Foundation
import Synchronization

/// One thread that waits out every limit of the process: a request's timeout, a source's
/// deadline. A refresh of 10,000 sources starts 20,000 of them and almost all are cancelled
/// when their work answers first. `Task.sleep` arms a dispatch timer source for each (made,
/// handed to dispatch's manager thread, fired or not) — a tenth of the CPU of a refresh where
/// every source answers 304. Here a wait is an entry in a heap and a cancelled one is dropped
/// from a table; the thread is woken only when a new wait ends before every other.
final class LimitTimer: Sendable {
  /// The process's timer, its thread started at the first wait.
  static let shared = LimitTimer()

  private struct Waits {
    /// When each wait ends, the soonest first.
    var heap = DeadlineHeap()
    /// The callers still waiting, by wait.
    var waiting: [UInt64: CheckedContinuation<Void, any Error>] = [:]
    /// Waits cancelled before they were entered.
    var cancelledEarly: Set<UInt64> = []
    var nextID: UInt64 = 0
    var started = false
  }

  private let waits = Mutex(Waits())
  /// Wakes the thread: a wait that ends sooner than every other was entered.
  private let wake = NSCondition()
  private let clock = ContinuousClock()

  /// Waits `duration`; throws `CancellationError` as soon as the calling task is cancelled.
  func sleep(for duration: Duration) async throws {
    let end = clock.now.advanced(by: duration)
    let id = waits.withLock { waits in
      defer { waits.nextID += 1 }
      return waits.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        enter(id, until: end, continuation)
      }
    } onCancel: {
      let waiting = waits.withLock { waits in
        guard let continuation = waits.waiting.removeValue(forKey: id) else {
          waits.cancelledEarly.insert(id)
          return CheckedContinuation<Void, any Error>?.none
        }
        return continuation
      }
      waiting?.resume(throwing: CancellationError())
    }
  }

  private func enter(
    _ id: UInt64, until end: ContinuousClock.Instant,
    _ continuation: CheckedContinuation<Void, any Error>
  ) {
    enum Entered {
      case cancelled
      case soonest(startThread: Bool)
      case later
    }
    let entered = waits.withLock { waits -> Entered in
      if waits.cancelledEarly.remove(id) != nil { return .cancelled }
      waits.waiting[id] = continuation
      let soonest = waits.heap.first.map { end < $0.end } ?? true
      waits.heap.push(end, id)
      guard soonest else { return .later }
      defer { waits.started = true }
      return .soonest(startThread: !waits.started)
    }
    switch entered {
    case .cancelled: continuation.resume(throwing: CancellationError())
    case .later: break
    case .soonest(let startThread):
      if startThread {
        let thread = Thread { [self] in run() }
        thread.name = "news.timer"
        thread.start()
      } else {
        wake.lock()
        wake.signal()
        wake.unlock()
      }
    }
  }

  /// Resumes each wait whose end has come, then sleeps until the next one (or a wake).
  private func run() {
    wake.lock()
    while true {
      let now = clock.now
      let (due, next) = waits.withLock { waits in
        var due: [CheckedContinuation<Void, any Error>] = []
        while let first = waits.heap.first, first.end <= now {
          waits.heap.pop()
          if let continuation = waits.waiting.removeValue(forKey: first.id) {
            due.append(continuation)
          }
        }
        return (due, waits.heap.first?.end)
      }
      for continuation in due { continuation.resume() }
      if let next {
        // A second at most: the wait is told in wall-clock time, which may be set back.
        let seconds = min(now.duration(to: next).seconds, 1)
        _ = wake.wait(until: Date().addingTimeInterval(seconds))
      } else {
        wake.wait()
      }
    }
  }
}

/// A binary min-heap of wait ends.
struct DeadlineHeap {
  private var entries: [(end: ContinuousClock.Instant, id: UInt64)] = []

  /// The soonest entry.
  var first: (end: ContinuousClock.Instant, id: UInt64)? { entries.first }

  var count: Int { entries.count }

  mutating func push(_ end: ContinuousClock.Instant, _ id: UInt64) {
    entries.append((end, id))
    var child = entries.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard entries[child].end < entries[parent].end else { break }
      entries.swapAt(child, parent)
      child = parent
    }
  }

  mutating func pop() {
    guard !entries.isEmpty else { return }
    entries.swapAt(0, entries.count - 1)
    entries.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < entries.count, entries[left].end < entries[smallest].end { smallest = left }
      if right < entries.count, entries[right].end < entries[smallest].end { smallest = right }
      guard smallest != parent else { return }
      entries.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
