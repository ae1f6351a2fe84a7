import FeedParsing
import Foundation

/// One item of the feed, whatever shape its source sends.
public struct FeedItem: Codable, Hashable, Sendable {
  /// Stable id: the ARTICLEID of its link when it has one (`example.com-2024-05-post`, the link
  /// normalised first: ``ArticleID/normalizedLink(_:)``), else the source name and a hash of the
  /// title and image (`b-1f3a9c`).
  public var id: String
  /// The name of the feed it came from (`a`, `b`, `c`, `lwn`, …): its provider, as an
  /// ``Article`` says.
  public var feed: String
  /// The headline.
  public var title: String
  /// The line under it: its summary (an ``Article``'s description).
  public var description: String?
  /// An illustration.
  public var imageURL: String?
  /// Where the full item can be read (feeds of the web).
  public var url: String?
  /// When it was published, if the feed says.
  public var publishedAt: Date?
  /// Who wrote it, if the feed says.
  public var author: String?
  /// Its full text, cleaned of HTML, when the feed sends more than the summary.
  public var content: String?
  /// The later sources listing the same link (the same id): the item is shown once, under the
  /// first source, with these named (see ``FeedLinkMerge``). Not stored.
  public var alsoIn: [String] = []
  /// What the item carries (podcast episodes, attachments): kept in the store beside its
  /// article when the item is fetched (the cache does not hold them).
  public var enclosures: [Enclosure] = []
  /// The categories the feed filed it under (kept in the store with its article, as
  /// ``enclosures`` are: the cache does not hold them).
  public var categories: [String] = []

  /// Creates an item from text that may hold HTML (the JSON shapes), cleaning its title and
  /// subtitle, and deriving its id. Blank strings count as absent: no item when the title is blank
  /// once cleaned (`<b></b>`, `<<<>`: found by fuzzing).
  public init?(
    feed: String, title: String, description: String?, imageURL: String?, url: String? = nil
  ) {
    let plain = HTMLText.plain(title)
    guard !plain.trimmingWhitespace().isEmpty else { return nil }
    self.init(
      feed: feed, plainTitle: plain, description: description.map(HTMLText.plain),
      imageURL: imageURL, url: url)
  }

  /// Creates an item from plain text (web feeds are made plain as they are read).
  init(
    feed: String, plainTitle title: String, description: String?, imageURL: String?, url: String?
  ) {
    self.feed = feed
    self.title = title
    self.description = description.nonEmpty
    self.imageURL = imageURL.nonEmpty
    self.url = url.nonEmpty
    // One link spelled two ways (`HTTPS://Example.com:443/a#top`) is one item.
    let linkID = self.url.map(ArticleID.forLink)
    if let linkID, ArticleID.namesAPage(linkID) {
      id = linkID
    } else {
      id = feed + "-" + StableHash.hex(title, self.imageURL ?? "", length: 6)
    }
  }

  /// An item with every field given as it is (decoding).
  init(id: String, feed: String, title: String) {
    self.id = id
    self.feed = feed
    self.title = title
  }

  /// An item with all its fields given as they are, made at once (a cache's 200,000 items
  /// decoded a field at a time were each copied as they were returned).
  init(
    id: String, feed: String, title: String, description: String?, imageURL: String?,
    url: String?, publishedAt: Date?, author: String?, content: String?, categories: [String],
    enclosures: [Enclosure]
  ) {
    self.id = id
    self.feed = feed
    self.title = title
    self.description = description
    self.imageURL = imageURL
    self.url = url
    self.publishedAt = publishedAt
    self.author = author
    self.content = content
    self.categories = categories
    self.enclosures = enclosures
  }

  /// A stored article as an item of its provider (a saved search's answer): same id, same text.
  init(article: Article) {
    self.init(id: article.id, feed: article.provider, title: article.title)
    description = article.description
    imageURL = article.imageURL
    url = article.url
    publishedAt = article.publishedAt
    author = article.author
    content = article.content
    categories = article.categories
  }

  /// The item as an article of its feed: the feed is its provider, and its publisher too (a
  /// feed names no other; `--json` has always said so).
  public var article: Article {
    var article = Article(
      id: id, provider: feed, title: title, description: description, author: author,
      publisher: feed, url: url, imageURL: imageURL, publishedAt: publishedAt, content: content)
    article.categories = categories
    return article
  }

  /// The names its cache entries were written with.
  enum CodingKeys: String, CodingKey {
    case id, title, url, publishedAt, author, content
    case feed = "source"
    case description = "subtitle"
    case imageURL = "imageUrl"
  }
}
