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

  /// Who a wait ends for: a task sleeping, or an action run on the timer's thread.
  private enum Waiter {
    case task(CheckedContinuation<Void, any Error>)
    case action(@Sendable () -> Void)
  }

  private struct Waits {
    /// When each wait ends, the soonest first.
    var heap = MinHeap<ContinuousClock.Instant, UInt64>()
    /// The waits still pending, by wait.
    var waiting: [UInt64: Waiter] = [:]
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
    let id = newID()
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        if !enter(id, until: end, .task(continuation)) {
          continuation.resume(throwing: CancellationError())
        }
      }
    } onCancel: {
      let waiter = waits.withLock { waits in
        guard let waiter = waits.waiting.removeValue(forKey: id) else {
          waits.cancelledEarly.insert(id)
          return Waiter?.none
        }
        return waiter
      }
      if case .task(let continuation) = waiter {
        continuation.resume(throwing: CancellationError())
      }
    }
  }

  /// Runs `action` on the timer's thread once `duration` has passed, unless ``cancel(_:)`` is
  /// called first with what this answers: a race of work against a limit without a task for
  /// its wait (``firstOfWithoutWaiting(_:orAfter:timer:)``). `action` must be short.
  func schedule(after duration: Duration, _ action: @escaping @Sendable () -> Void) -> UInt64 {
    let id = newID()
    _ = enter(id, until: clock.now.advanced(by: duration), .action(action))
    return id
  }

  /// Drops the action ``schedule(after:_:)`` answered `id` for, unless it ran already.
  func cancel(_ id: UInt64) {
    _ = waits.withLock { $0.waiting.removeValue(forKey: id) }
  }

  /// How many waits are pending (tests see a cancelled one dropped).
  var pendingCount: Int { waits.withLock { $0.waiting.count } }

  private func newID() -> UInt64 {
    waits.withLock { waits in
      defer { waits.nextID += 1 }
      return waits.nextID
    }
  }

  /// Enters wait `id`; `false` when it was cancelled before.
  private func enter(_ id: UInt64, until end: ContinuousClock.Instant, _ waiter: Waiter) -> Bool {
    enum Entered {
      case cancelled
      case soonest(startThread: Bool)
      case later
    }
    let entered = waits.withLock { waits -> Entered in
      if waits.cancelledEarly.remove(id) != nil { return .cancelled }
      waits.waiting[id] = waiter
      let soonest = waits.heap.first.map { end < $0.key } ?? true
      waits.heap.push(end, id)
      guard soonest else { return .later }
      defer { waits.started = true }
      return .soonest(startThread: !waits.started)
    }
    switch entered {
    case .cancelled: return false
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
    return true
  }

  /// Ends each wait whose end has come, then sleeps until the next one (or a wake).
  private func run() {
    wake.lock()
    while true {
      let now = clock.now
      let (due, next) = waits.withLock { waits in
        var due: [Waiter] = []
        while let first = waits.heap.first, first.key <= now {
          waits.heap.pop()
          if let waiter = waits.waiting.removeValue(forKey: first.value) { due.append(waiter) }
        }
        return (due, waits.heap.first?.key)
      }
      if !due.isEmpty {
        // Ended without the lock held (an action may cancel tasks); then looked at again, as a
        // wait entered meanwhile signalled no one.
        wake.unlock()
        for waiter in due {
          switch waiter {
          case .task(let continuation): continuation.resume()
          case .action(let action): action()
          }
        }
        wake.lock()
        continue
      }
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
