import Foundation

/// One item of the feed, whatever shape its source sends.
public struct FeedItem: Codable, Hashable, Sendable {
  /// Stable id: the source name and a hash of the title and image, e.g. `b-1f3a9c`.
  public var id: String
  /// The source's name (`a`, `b`, `c`, …).
  public var source: String
  /// The headline.
  public var title: String
  /// The line under it.
  public var subtitle: String?
  /// An illustration.
  public var imageURL: String?
  /// Where the full item can be read (feeds of the web).
  public var url: String?
  /// When it was published, if the feed says.
  public var publishedAt: Date?
  /// Who wrote it, if the feed says.
  public var author: String?

  /// Creates an item, deriving its id. Blank strings count as absent.
  public init(source: String, title: String, subtitle: String?, imageURL: String?) {
    self.source = source
    self.title = title
    self.subtitle = subtitle.nonEmpty
    self.imageURL = imageURL.nonEmpty
    id = source + "-" + StableHash.hex(title, self.imageURL ?? "", length: 6)
  }

  enum CodingKeys: String, CodingKey {
    case id, source, title, subtitle, url, publishedAt, author
    case imageURL = "imageUrl"
  }
}
