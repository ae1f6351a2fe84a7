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
