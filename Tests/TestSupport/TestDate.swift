import Foundation
import Synchronization

/// A date that only moves when a test moves it.
public final class TestDate: Sendable {
  private let current: Mutex<Date>

  /// Starts at `start`.
  public init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
    current = Mutex(start)
  }

  /// The current time.
  public var now: Date { current.withLock { $0 } }

  /// Moves the clock forward.
  public func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}
