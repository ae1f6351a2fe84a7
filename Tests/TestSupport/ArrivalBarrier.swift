import Foundation

/// Proves that requests were in flight at the same time, whatever the machine's load: each route
/// handler waits here until `count` requests have arrived. Sent one after the other, the first
/// would wait in vain until the timeout and report `false`.
public final class ArrivalBarrier: @unchecked Sendable {
  private let count: Int
  // `arrived` is read and written under `condition` only.
  private let condition = NSCondition()
  private var arrived = 0
  private let outcomes = Recorder<Bool>()

  /// A barrier for `count` requests.
  public init(count: Int) { self.count = count }

  /// Blocks the calling (server) thread until every request has arrived, or `timeout` passes: a
  /// bound for a broken run (requests sent one after the other), long enough that a machine
  /// busy with every other suite never reaches it in a run that works.
  @discardableResult
  public func arrive(timeout: Duration = .seconds(60)) -> Bool {
    let deadline = Date().addingTimeInterval(timeout.secondsValue)
    condition.lock()
    arrived += 1
    condition.broadcast()
    while arrived < count, condition.wait(until: deadline) {}
    let together = arrived >= count
    condition.unlock()
    outcomes.record(together)
    return together
  }

  /// Whether all `count` requests met here, each waiting for the others.
  public var metTogether: Bool {
    let all = outcomes.all
    return all.count == count && all.allSatisfy { $0 }
  }
}
