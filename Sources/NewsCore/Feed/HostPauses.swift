import Foundation
import Synchronization

/// The hosts that answered `429 Too Many Requests` with `Retry-After` during one run, and until
/// when: the run's other sources on that host are not asked (the next runs read the same waits
/// from ``FeedBackoff``).
final class HostPauses: Sendable {
  private let pauses = Mutex<[String: Date]>([:])

  /// Until when `url`'s host asked to wait, if it did and that is after `now`.
  func until(_ url: URL, now: Date) -> Date? {
    guard let key = FeedBackoff.hostKey(url) else { return nil }
    return pauses.withLock { $0[key] }.flatMap { $0 > now ? $0 : nil }
  }

  /// Holds `url`'s host until `until`.
  func pause(_ url: URL, until: Date) {
    guard let key = FeedBackoff.hostKey(url) else { return }
    pauses.withLock { pauses in
      if until > (pauses[key] ?? .distantPast) { pauses[key] = until }
    }
  }

  /// Every host held, by its ``FeedBackoff/hostKey(_:)``.
  var all: [String: Date] { pauses.withLock { $0 } }
}
