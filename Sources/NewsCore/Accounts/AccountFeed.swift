import FeedParsing
import Foundation

/// One subscription of an account, as its server lists it.
public struct AccountFeed: Codable, Sendable, Equatable {
  /// The server's id of the feed (`12`, `feed/https://example.com/rss`).
  public var id: String
  /// Its title on the server.
  public var title: String
  /// The feed's address, when the server says.
  public var url: String?
  /// The folders (Google Reader labels, Fever groups) it is filed under: its tags here.
  public var folders: [String]
  /// Its source name here: `<account>/<slug of its title>` (``AccountState/assignNames(_:)``).
  public var source: String = ""
  /// The site the feed is of, when the server says.
  public var site: String?
  /// Subscribed from here since the account's last sync (`sources add --account`): its items
  /// come with the next sync, so it is shown as not synced yet, and a plain `feed` syncs the
  /// account as it fetches a source never fetched. `nil` once a sync lists it.
  public var awaitsSync: Bool?

  /// Creates a feed.
  public init(id: String, title: String, url: String?, folders: [String]) {
    self.id = id
    self.title = title
    self.url = url
    self.folders = folders
  }

  /// Creates a feed as a server lists it: titled `title` when the server gives one, else by its
  /// address, else by its id.
  init(id: String, title: String?, url: String?, folders: [String], site: Any? = nil) {
    self.init(id: id, title: title.nonEmpty ?? url ?? id, url: url, folders: folders)
    self.site = (site as? String).nonEmpty
  }
}

/// One item of an account's feeds, as its server sends it.
public struct AccountItem: Sendable, Equatable {
  /// The server's id of the item, in its short form (a decimal number for both protocols).
  public var id: String
  /// The server's id of its feed.
  public var feedID: String
  /// Its title.
  public var title: String
  /// Its link.
  public var url: String?
  /// Who wrote it.
  public var author: String?
  /// Its content, HTML.
  public var html: String?
  /// When it was published.
  public var publishedAt: Date?
  /// Whether it is read on the server.
  public var isRead: Bool
  /// Whether it is saved (starred) on the server.
  public var isSaved: Bool
  /// The files it carries (a podcast's episode), when the API sends them.
  public var enclosures: [Enclosure] = []
}

/// A change of an item's state made here, to be sent to the server (``AccountOutbox``).
public struct AccountMark: Codable, Sendable, Hashable {
  /// What changes.
  public enum Change: String, Codable, Sendable {
    case read, unread, saved, unsaved
  }
  /// The server's id of the item (of the feed, for a whole feed marked read).
  public var item: String
  /// The change.
  public var change: Change
  /// For a whole feed marked read (`item` is then the feed's id): the items received before this
  /// time, in seconds since 1970 (Fever `mark=feed&before=`, Google Reader `mark-all-as-read`
  /// with `ts`). `nil` for one item's mark.
  public var feedBefore: Double?
  /// For a whole feed marked read on an API that bounds it by item (Nextcloud News's
  /// `newestItemId`): the highest item id known when it was marked. `nil` otherwise.
  public var newestItem: String?

  /// Creates a mark.
  public init(item: String, change: Change, feedBefore: Double? = nil, newestItem: String? = nil) {
    self.item = item
    self.change = change
    self.feedBefore = feedBefore
    self.newestItem = newestItem
  }
}
