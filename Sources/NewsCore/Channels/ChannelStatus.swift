import Foundation

/// Where a channel's items came from, or why there are none, as a value: the reader words it
/// beside the heading and on the home screen (`cached, 5 min ago`, `never fetched`).
public enum ChannelStatus: Sendable, Equatable {
  /// Fresh from the network.
  case fresh
  /// From the store (a list gathered from the others', the bookmarks, a home row).
  case stored
  /// A provider's list, fresh or from the store, fetched at `fetchedAt`.
  case list(ListFreshness, fetchedAt: Date)
  /// A feed source's answer, fetched at `fetchedAt` (when it was).
  case feed(FeedSourceStatus, fetchedAt: Date?)
  /// An account's feed, as of its account's last sync (`nil`: not synced yet).
  case synced(Date?)
  /// A source that never answered.
  case neverFetched
  /// A source failing run after run, with its last error.
  case failing(String)
  /// What was kept cannot be read, and why.
  case unreadable(String)

  /// Whether the channel fails.
  public var failed: Bool {
    if case .failing = self { return true }
    return false
  }
}
