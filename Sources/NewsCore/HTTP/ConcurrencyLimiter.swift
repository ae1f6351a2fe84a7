/// Bounds how many requests run at once, in all and per host, so that a fan-out never floods a
/// server or the machine.
///
/// Waiters are served first come, first served among the hosts with room. Ten thousand sources
/// queue at once in a refresh: each host keeps its own queue, and the hosts that have room and
/// someone waiting are ordered by their first waiter's arrival (a ``MinHeap``), so a slot is
/// handed over in logarithmic time, never by a walk of everyone waiting.
actor ConcurrencyLimiter {
  private let total: Int
  private let perHost: Int
  private var running = 0
  private var runningByHost: [String: Int] = [:]
  private var queues: [String: WaiterQueue] = [:]
  /// Every host with someone waiting and room under `perHost`, by its first waiter's arrival;
  /// an entry may be stale (the host filled since), and is checked when it comes out.
  private var ready = MinHeap<Int, String>()
  private var arrivals = 0
  private(set) var waitingCount = 0

  /// Told how many callers wait, each time one more does (tests wait on it, not on a clock).
  private let onWaiting: (@Sendable (Int) -> Void)?

  init(total: Int, perHost: Int, onWaiting: (@Sendable (Int) -> Void)? = nil) {
    self.total = max(1, total)
    self.perHost = max(1, perHost)
    self.onWaiting = onWaiting
  }

  /// Runs `body` once a slot for `host` is free.
  nonisolated func run<T: Sendable>(host: String, _ body: () async throws -> T) async throws -> T {
    await acquire(host)
    do {
      let value = try await body()
      await release(host)
      return value
    } catch {
      await release(host)
      throw error
    }
  }

  /// Runs `body`, which cannot fail, once a slot for `host` is free.
  nonisolated func runUnfailing<T: Sendable>(host: String, _ body: () async -> T) async -> T {
    await acquire(host)
    let value = await body()
    await release(host)
    return value
  }

  private func hostHasRoom(_ host: String) -> Bool {
    runningByHost[host, default: 0] < perHost
  }

  private func take(_ host: String) {
    running += 1
    runningByHost[host, default: 0] += 1
  }

  private func acquire(_ host: String) async {
    if running < total, hostHasRoom(host) {
      take(host)
      return
    }
    await withCheckedContinuation { continuation in
      arrivals += 1
      let wasEmpty = queues[host]?.isEmpty ?? true
      queues[host, default: WaiterQueue()].append(arrivals, continuation)
      if wasEmpty, hostHasRoom(host) { ready.push(arrivals, host) }
      waitingCount += 1
      onWaiting?(waitingCount)
    }
  }

  private func release(_ host: String) {
    running -= 1
    runningByHost[host, default: 1] -= 1
    if runningByHost[host] == 0 { runningByHost[host] = nil }
    // The host has room again: its first waiter (if any) competes for the next slot.
    if runningByHost[host, default: 0] == perHost - 1, let first = queues[host]?.firstArrival {
      ready.push(first, host)
    }
    // The slot is handed over before the waiter resumes, so nobody can take it in between.
    while running < total, let (arrival, next) = ready.pop() {
      // Changed in place (a copy of the queue would copy every waiter of the host).
      guard hostHasRoom(next), queues[next]?.firstArrival == arrival,
        let continuation = queues[next]?.removeFirst()
      else { continue }
      waitingCount -= 1
      take(next)
      if let following = queues[next]?.firstArrival {
        if hostHasRoom(next) { ready.push(following, next) }
      } else {
        queues[next] = nil
      }
      continuation.resume()
    }
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
