/// Bounds how many requests run at once, in all and per host, so that a fan-out never floods a
/// server or the machine.
actor ConcurrencyLimiter {
  private let total: Int
  private let perHost: Int
  private var running = 0
  private var runningByHost: [String: Int] = [:]
  private var waiting: [(host: String, continuation: CheckedContinuation<Void, Never>)] = []

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

  /// How many callers wait for a slot (for tests that prove the bound without a clock).
  var waitingCount: Int { waiting.count }

  private func hasRoom(_ host: String) -> Bool {
    running < total && runningByHost[host, default: 0] < perHost
  }

  private func take(_ host: String) {
    running += 1
    runningByHost[host, default: 0] += 1
  }

  private func acquire(_ host: String) async {
    if hasRoom(host) {
      take(host)
      return
    }
    await withCheckedContinuation {
      waiting.append((host, $0))
      onWaiting?(waiting.count)
    }
  }

  private func release(_ host: String) {
    running -= 1
    runningByHost[host, default: 1] -= 1
    // The slot is handed over before the waiter resumes, so nobody can take it in between.
    while let index = waiting.firstIndex(where: { hasRoom($0.host) }) {
      let next = waiting.remove(at: index)
      take(next.host)
      next.continuation.resume()
    }
  }
}
