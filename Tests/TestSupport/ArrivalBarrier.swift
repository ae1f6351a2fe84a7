import Foundation
import Synchronization

/// Proves that requests were in flight at the same time, whatever the machine's load: each route
/// handler waits here until `count` requests have arrived. Sent one after the other, the first
/// would wait in vain until the timeout and report `false`.
public final class ArrivalBarrier: Sendable {
  private let count: Int
  private let arrived = Mutex(0)
  private let outcomes = Recorder<Bool>()

  /// A barrier for `count` requests.
  public init(count: Int) { self.count = count }

  /// Blocks the calling (server) thread until every request has arrived, or `timeout` passes.
  @discardableResult
  public func arrive(timeout: Duration = .seconds(5)) -> Bool {
    arrived.withLock { $0 += 1 }
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    var together = false
    while clock.now < deadline {
      if arrived.withLock({ $0 }) >= count {
        together = true
        break
      }
      Thread.sleep(forTimeInterval: 0.001)
    }
    outcomes.record(together)
    return together
  }

  /// Whether all `count` requests met here, each waiting for the others.
  public var metTogether: Bool {
    let all = outcomes.all
    return all.count == count && all.allSatisfy { $0 }
  }
}
