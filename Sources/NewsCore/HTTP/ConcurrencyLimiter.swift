import Synchronization

/// Bounds how many requests run at once, in all and per host, so that a fan-out never floods a
/// server or the machine.
///
/// Waiters are served first come, first served among the hosts with room. Ten thousand sources
/// queue at once in a refresh: each host keeps its own queue, and the hosts that have room and
/// someone waiting are ordered by their first waiter's arrival (a ``MinHeap``), so a slot is
/// handed over in logarithmic time, never by a walk of everyone waiting.
///
/// A lock, not an actor: a slot that is free is taken without the caller's task leaving its
/// thread, and a slot given back hands itself to the next waiter on the giver's thread (an actor
/// cost two hops a request, each a thread's wake-up: a tenth of a refresh where every source
/// answers `304`). Only a caller that must wait suspends.
final class ConcurrencyLimiter: Sendable {
  private struct State: ~Copyable {
    var running = 0
    var runningByHost: [String: Int] = [:]
    var queues: [String: WaiterQueue] = [:]
    /// Every host with someone waiting and room under `perHost`, by its first waiter's arrival;
    /// an entry may be stale (the host filled since), and is checked when it comes out.
    var ready = MinHeap<Int, String>()
    var arrivals = 0
    var waiting = 0

    /// Whether `host` has a slot free under `perHost`.
    func hasRoom(_ host: String, perHost: Int) -> Bool {
      runningByHost[host, default: 0] < perHost
    }

    /// Takes a slot for `host`.
    mutating func take(_ host: String) {
      running += 1
      runningByHost[host, default: 0] += 1
    }

    /// Takes a slot for `host` when one is free, in all and for the host.
    mutating func takeIfFree(_ host: String, total: Int, perHost: Int) -> Bool {
      guard running < total, hasRoom(host, perHost: perHost) else { return false }
      take(host)
      return true
    }
  }

  private let total: Int
  private let perHost: Int
  private let state = Mutex(State())

  /// Told how many callers wait, each time one more does (tests wait on it, not on a clock).
  private let onWaiting: (@Sendable (Int) -> Void)?

  init(total: Int, perHost: Int, onWaiting: (@Sendable (Int) -> Void)? = nil) {
    self.total = max(1, total)
    self.perHost = max(1, perHost)
    self.onWaiting = onWaiting
  }

  /// How many callers wait for a slot now.
  var waitingCount: Int { state.withLock { $0.waiting } }

  /// Runs `body` once a slot for `host` is free.
  func run<T: Sendable>(host: String, _ body: () async throws -> T) async throws -> T {
    await acquire(host)
    do {
      let value = try await body()
      release(host)
      return value
    } catch {
      release(host)
      throw error
    }
  }

  /// Runs `body`, which cannot fail, once a slot for `host` is free.
  func runUnfailing<T: Sendable>(host: String, _ body: () async -> T) async -> T {
    await acquire(host)
    let value = await body()
    release(host)
    return value
  }

  private func acquire(_ host: String) async {
    if state.withLock({ $0.takeIfFree(host, total: total, perHost: perHost) }) { return }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      // Queued under the lock that the slot's release takes: a slot given back between the
      // check above and here finds this waiter, or left room that is taken now.
      let outcome = state.withLock { state -> (resume: Bool, waiting: Int?) in
        if state.takeIfFree(host, total: total, perHost: perHost) { return (true, nil) }
        state.arrivals += 1
        let wasEmpty = state.queues[host]?.isEmpty ?? true
        state.queues[host, default: WaiterQueue()].append(state.arrivals, continuation)
        if wasEmpty, state.hasRoom(host, perHost: perHost) {
          state.ready.push(state.arrivals, host)
        }
        state.waiting += 1
        return (false, state.waiting)
      }
      if outcome.resume { continuation.resume() }
      if let waiting = outcome.waiting { onWaiting?(waiting) }
    }
  }

  private func release(_ host: String) {
    let next = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.running -= 1
      state.runningByHost[host, default: 1] -= 1
      if state.runningByHost[host] == 0 { state.runningByHost[host] = nil }
      // The host has room again: its first waiter (if any) competes for the next slot.
      if state.runningByHost[host, default: 0] == perHost - 1,
        let first = state.queues[host]?.firstArrival
      {
        state.ready.push(first, host)
      }
      // The slot is handed over before the waiter resumes, so nobody can take it in between.
      var resumed: [CheckedContinuation<Void, Never>] = []
      while state.running < total, let (arrival, next) = state.ready.pop() {
        // Changed in place (a copy of the queue would copy every waiter of the host).
        guard state.hasRoom(next, perHost: perHost), state.queues[next]?.firstArrival == arrival,
          let continuation = state.queues[next]?.removeFirst()
        else { continue }
        state.waiting -= 1
        state.take(next)
        if let following = state.queues[next]?.firstArrival {
          if state.hasRoom(next, perHost: perHost) { state.ready.push(following, next) }
        } else {
          state.queues[next] = nil
        }
        resumed.append(continuation)
      }
      return resumed
    }
    for continuation in next { continuation.resume() }
  }
}

/// One host's waiters, first come first: an array read from a moving start, compacted when
/// half of it is spent.
private struct WaiterQueue {
  private var waiters: [(arrival: Int, continuation: CheckedContinuation<Void, Never>)] = []
  private var start = 0

  var isEmpty: Bool { start == waiters.count }
  var firstArrival: Int? { isEmpty ? nil : waiters[start].arrival }

  mutating func append(_ arrival: Int, _ continuation: CheckedContinuation<Void, Never>) {
    waiters.append((arrival, continuation))
  }

  mutating func removeFirst() -> CheckedContinuation<Void, Never> {
    let first = waiters[start].continuation
    start += 1
    if start == waiters.count {
      waiters.removeAll(keepingCapacity: true)
      start = 0
    } else if start >= 64, start * 2 >= waiters.count {
      waiters.removeFirst(start)
      start = 0
    }
    return first
  }
}
