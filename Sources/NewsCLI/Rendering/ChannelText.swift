import FeedParsing
import Foundation
import NewsCore

/// A channel's heading and status, and a list's freshness, in the reader's words.
extension ChannelHeading {
  /// `Source hn`, `Top headlines · us`, `All unread`, `Tag tech`.
  var text: String {
    switch self {
    case .provider(let heading): heading
    case .source(let name): "Source " + name
    case .bookmarks: "Bookmarks"
    case .allUnread: "All unread"
    case .tag(let tag): "Tag " + tag
    }
  }
}

extension ChannelStatus {
  /// `fresh`, `cached, 5 min ago`, `stored 2 h ago (the server failed)`, `synced 5 min ago` (an
  /// account's feed), `never fetched`,
  /// `unreadable: …`; a failing source's own error.
  func text(now: Date) -> String {
    switch self {
    case .fresh: "fresh"
    case .stored: "stored"
    case .list(let freshness, let fetchedAt):
      freshness.label(fetchedAt: fetchedAt, now: now, withReason: true) ?? "fresh"
    case .feed(let status, let fetchedAt):
      status.rawValue
        + (status == .fresh
          ? "" : fetchedAt.map { ", " + RelativeTime.describe($0, now: now) } ?? "")
    case .synced(let at):
      at.map { "synced " + RelativeTime.describe($0, now: now) } ?? "not synced yet"
    case .neverFetched: "never fetched"
    case .failing(let error): error
    case .unreadable(let reason): "unreadable: " + reason
    }
  }
}

extension ListFreshness {
  /// How a list of `fetchedAt` is described beside its heading: `nil` when fresh, else
  /// `stored 5 min ago`, with the failure it stands in for when `withReason`.
  func label(fetchedAt: Date, now: Date, withReason: Bool = false) -> String? {
    switch self {
    case .fresh: return nil
    case .offline: return "stored " + RelativeTime.describe(fetchedAt, now: now)
    case .stale(let reason):
      let stored = "stored " + RelativeTime.describe(fetchedAt, now: now)
      return withReason ? stored + " (\(reason))" : stored
    }
  }
}
