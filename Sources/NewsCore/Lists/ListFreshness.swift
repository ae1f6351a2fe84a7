import FeedParsing
import Foundation

/// Where a list's articles came from.
public enum ListFreshness: Sendable, Equatable {
  /// Fresh from the network.
  case fresh
  /// From the store, as `--offline` asked.
  case offline
  /// From the store, standing in for a failure of the network or the server (its message).
  case stale(String)
}

extension ListFreshness {
  /// How a list of `fetchedAt` is described beside its heading: `nil` when fresh, else
  /// `stored 5 min ago`, with the failure it stands in for when `withReason`.
  public func label(fetchedAt: Date, now: Date, withReason: Bool = false) -> String? {
    switch self {
    case .fresh: return nil
    case .offline: return "stored " + RelativeTime.describe(fetchedAt, now: now)
    case .stale(let reason):
      let stored = "stored " + RelativeTime.describe(fetchedAt, now: now)
      return withReason ? stored + " (\(reason))" : stored
    }
  }
}
