import FeedParsing
import Foundation

/// newsboat's `cache.db`: the articles it kept, each with its feed and whether it is unread and
/// flagged, read through the system's SQLite (``SQLiteDatabase``).
public struct NewsboatCache: Sendable {
  /// One article newsboat kept (deleted ones are left out).
  public struct Item: Sendable, Equatable {
    /// Its link; empty for an entry with none (a podcast's episode, known by its guid).
    public var link: String
    /// The entry's guid as newsboat kept it.
    public var guid: String = ""
    public var feedURL: String
    public var title: String
    public var author: String
    public var published: Date?
    /// As newsboat stored it (HTML).
    public var content: String
    public var unread: Bool
    /// newsboat's flags (letters a user sets; `s` starred by its sync with servers).
    public var flags: String
    /// Its enclosure (a podcast's episode) and the enclosure's type, empty for none.
    public var enclosureURL = ""
    public var enclosureType = ""

    /// Whether it has a link to a page (else it is known by its guid alone).
    var hasLink: Bool { URL.web(link) != nil }
  }

  public var items: [Item]
  /// The feed and link (`feed\0link id`) of the articles whose link another article of their
  /// feed has too: named as the feed reader names such entries (by link and guid).
  var sharedLinks: Set<String> = []

  /// How many are read, and flagged.
  public var readCount: Int { items.count { !$0.unread } }
  public var flaggedCount: Int { items.count { !$0.flags.isEmpty } }

  /// Reads the cache at `path`.
  static func read(_ path: String) throws(SQLiteDatabase.Failure) -> NewsboatCache {
    let database = try SQLiteDatabase(path: path)
    let rows = try database.rows(
      "SELECT url, feedurl, title, author, pubDate, content, unread, flags, guid, enclosure_url, "
        + "enclosure_type FROM rss_item WHERE deleted = 0 ORDER BY id")
    let items = rows.compactMap { row -> Item? in
      // An entry without a link (a podcast's episode) is known by its guid, as the feed
      // reader knows it.
      guard row.count == 11, let link = row[0], URL.web(link) != nil || row[8].nonEmpty != nil
      else { return nil }
      let seconds = row[4].flatMap { Int($0) } ?? 0
      return Item(
        link: URL.web(link) != nil ? link : "", guid: row[8] ?? "", feedURL: row[1] ?? "",
        title: row[2] ?? "", author: row[3] ?? "",
        published: seconds > 0 ? Date(timeIntervalSince1970: TimeInterval(seconds)) : nil,
        content: row[5] ?? "", unread: row[6] != "0", flags: row[7] ?? "",
        enclosureURL: row[9] ?? "", enclosureType: row[10] ?? "")
    }
    var counts: [String: Int] = [:]
    for item in items where item.hasLink { counts[Self.key(item), default: 0] += 1 }
    return NewsboatCache(
      items: items, sharedLinks: Set(counts.filter { $0.value > 1 }.keys))
  }

  private static func key(_ item: Item) -> String {
    item.feedURL + "\u{0}" + ArticleID.forLink(item.link)
  }

  /// The id of `item` as an article of `source` (`nil`: of none): its link's, or, where its
  /// feed has that link more than once, the feed reader's name for such an entry; an entry
  /// without a link is named by its source and guid, as the feed reader names it (`nil` when
  /// its feed is no source).
  func id(of item: Item, source: String?) -> String? {
    guard item.hasLink else {
      return source.map { $0 + "-" + StableHash.hex(item.guid, length: 10) }
    }
    guard let source, sharedLinks.contains(Self.key(item)) else {
      return ArticleID.forLink(item.link)
    }
    let title = HTMLText.plain(item.title)
    return SyndicationAdapter.sharedLinkID(
      source: source, url: item.link,
      own: item.guid.isEmpty ? (title.isEmpty ? item.link : title) : item.guid)
  }

  /// The item as an article of `source`: its id as a feed's item gets it (``id(of:source:)``).
  func article(_ item: Item, source: String) -> Article {
    let text = HTMLText.content(item.content, base: URL(string: item.link))
    let title = HTMLText.plain(item.title)
    var feedItem = FeedItem(
      feed: source,
      plainTitle: title.isEmpty ? (item.hasLink ? item.link : item.enclosureURL) : title,
      description: text.isEmpty ? nil : SyndicationAdapter.excerpt(HTMLText.plain(item.content)),
      imageURL: nil, url: item.link)
    feedItem.id = id(of: item, source: source) ?? feedItem.id
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
