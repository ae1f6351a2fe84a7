import FeedParsing
import Foundation

/// newsboat's `cache.db`: the articles it kept, each with its feed and whether it is unread and
/// flagged, read through the system's SQLite (``SQLiteDatabase``).
public struct NewsboatCache: Sendable {
  /// One article newsboat kept (deleted ones are left out).
  public struct Item: Sendable, Equatable {
    public var link: String
    public var feedURL: String
    public var title: String
    public var author: String
    public var published: Date?
    /// As newsboat stored it (HTML).
    public var content: String
    public var unread: Bool
    /// newsboat's flags (letters a user sets; `s` starred by its sync with servers).
    public var flags: String
  }

  public var items: [Item]

  /// How many are read, and flagged.
  public var readCount: Int { items.count { !$0.unread } }
  public var flaggedCount: Int { items.count { !$0.flags.isEmpty } }

  /// Reads the cache at `path`.
  static func read(_ path: String) throws(SQLiteDatabase.Failure) -> NewsboatCache {
    let database = try SQLiteDatabase(path: path)
    let rows = try database.rows(
      "SELECT url, feedurl, title, author, pubDate, content, unread, flags FROM rss_item "
        + "WHERE deleted = 0 ORDER BY id")
    let items = rows.compactMap { row -> Item? in
      guard row.count == 8, let link = row[0], URL.web(link) != nil else { return nil }
      let seconds = row[4].flatMap { Int($0) } ?? 0
      return Item(
        link: link, feedURL: row[1] ?? "", title: row[2] ?? "", author: row[3] ?? "",
        published: seconds > 0 ? Date(timeIntervalSince1970: TimeInterval(seconds)) : nil,
        content: row[5] ?? "", unread: row[6] != "0", flags: row[7] ?? "")
    }
    return NewsboatCache(items: items)
  }

  /// The item as an article of `source`: its id from its link, as a feed's item gets it.
  func article(_ item: Item, source: String) -> Article {
    let text = HTMLText.content(item.content, base: URL(string: item.link))
    let title = HTMLText.plain(item.title)
    var feedItem = FeedItem(
      feed: source, plainTitle: title.isEmpty ? item.link : title,
      description: text.isEmpty ? nil : SyndicationAdapter.excerpt(HTMLText.plain(item.content)),
      imageURL: nil, url: item.link)
    feedItem.author = item.author.isEmpty ? nil : item.author
    feedItem.publishedAt = item.published
    feedItem.content = text.isEmpty ? nil : text
    return feedItem.article
  }

  /// What carrying the state did.
  public struct Outcome: Sendable, Equatable {
    /// Articles newsboat kept that were not here, now kept (their feed is a source).
    public var kept = 0
    /// Articles marked read, and bookmarked.
    public var read = 0
    public var bookmarked = 0
    /// Articles neither here nor of a source (their feed was not imported): left out.
    public var leftOut = 0
  }
}
