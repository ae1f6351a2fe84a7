import FeedParsing
import Foundation

/// What one channel holds now: its heading, how fresh, the items a reader shows with their
/// read and bookmark state, and its counts (counted once, here).
public struct ChannelContents: Sendable, Equatable {
  /// What it is called (`Source hn`, `All unread`, as the reader words it).
  public var heading: ChannelHeading
  /// Where its items came from (`fresh`, `cached, 5 min ago`, `stored`).
  public var freshness: ChannelStatus
  /// The items shown: every one, or only the unread ones when the reader asked for that.
  public var articles: [Article]
  /// The ids of the read ones.
  public var read: Set<String>
  /// The ids of the bookmarked ones.
  public var bookmarked: Set<String>
  /// Unread items of the whole channel (ignored ones left out).
  public var unread: Int
  /// Items of the whole channel (ignored ones left out).
  public var total: Int
  /// What could not be read (read marks, bookmarks, an ignore rule), for the reader to show.
  public var warnings: [String]
  /// The ids of the shown items whose full text is kept.
  public var withFullText: Set<String> = []
  /// The items this answer stored first (a reload), for the newItem hook; none from the store.
  public var newItems: [FeedItem] = []
  /// The audio and video of the shown items carrying some, by id.
  public var media: [String: [Enclosure]] = [:]
  /// The ids of the shown items with a downloaded file.
  public var downloaded: Set<String> = []
  /// Whether the channel is a source showing full text by default (`"fullText": true`).
  public var showsFullText = false
  /// The account whose sync this answer made or shared: its other feeds hold what it brought.
  public var syncedAccount: String?

  /// The row this channel makes on the home screen.
  public var row: ChannelRow {
    ChannelRow(unread: unread, total: total, status: freshness)
  }
}

/// A home screen row: a channel's counts (when known) and its state.
public struct ChannelRow: Sendable, Equatable {
  /// Unread items, when known.
  public var unread: Int?
  /// Items, when known.
  public var total: Int?
  /// Where its items came from, or why there are none.
  public var status: ChannelStatus
  /// Whether the status is a failure.
  public var failed: Bool { status.failed }

  /// Creates a row.
  public init(unread: Int?, total: Int?, status: ChannelStatus) {
    self.unread = unread
    self.total = total
    self.status = status
  }
}
