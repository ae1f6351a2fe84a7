/// The feed as it is shown: the sources' reports (one link one item, only unread ones when
/// asked, cut to the limit), which items are read, each source's unread count, and what the
/// user should be told.
public struct FeedListResult: Sendable {
  /// The reports, in the order of the sources, with the items to show.
  public var reports: [FeedSourceReport]
  /// The ids of the shown items that are read.
  public var read: Set<String>
  /// Each source's unread items (before `--unread` and `--limit`).
  public var unread: [String: Int]
  /// The ids of the shown items the killfile matches (only with `showIgnored`).
  public var ignored: Set<String> = []
  /// Whether the items the killfile matches are shown (`--show-ignored`).
  public var showsIgnored = false
  /// The sources `--limit` cut short.
  public var cutByLimit: Set<String>
  /// Warnings for standard error (read marks that cannot be read).
  public var warnings: [String]
  /// Whether every source failed (the command then fails, after showing what it could).
  public var everyFailed: Bool { reports.allSatisfy { $0.status == .failed } }
  /// The marks the list was shown with (to stamp again those still listed).
  let marks: ReadMarks

  /// Every item shown, numbered across sources in this order.
  public var items: [FeedItem] { reports.flatMap(\.items) }
}
