import Foundation

/// One source's line in the sync report.
public struct SyncSourceReport: Sendable, Equatable {
  /// `newsapi`, `articles`, `bbc`, `a`, `lwn-net`, …: the names `news sources` prints.
  public var name: String
  /// Whether the source was pulled, failed or was skipped.
  public var status: SyncSourceStatus
  /// Whether the source was pulled.
  public var ok: Bool { status == .ok }
  /// Articles or items that were not stored before.
  public var new: Int
  /// Articles or items in the source's answer.
  public var total: Int
  /// Whether it was asked: a feed source not due yet (``NextFetch``) is answered by its cache,
  /// ok with nothing new, unless the sync refreshes everything.
  public var asked = true
  /// When a feed source not asked is due, and why.
  public var next: NextFetch?
  /// Why it failed.
  public var error: String?
  /// HTTP attempts made (1 + retries).
  public var attempts: Int
  /// What the user should know (items of the answer left out, and why).
  public var warnings: [String] = []
  /// A feed source's items new in this run (what a `newItem` hook runs for).
  public var newItems: [FeedItem] = []
}
