import Foundation

/// One news article, whatever provider it came from.
///
/// This is the domain model: each provider's wire format is decoded into its own types beside its
/// client and then turned into an `Article`. Optional fields are `nil` when the provider left them
/// out, sent `null` or sent an empty string.
public struct Article: Codable, Hashable, Sendable {
  /// Stable identifier: the ARTICLEID of the URL for newsapi.org, `<provider>-<id>` for others.
  public var id: String
  /// Which provider the article came from (`newsapi`, `articles`, `bbc`).
  public var provider: String
  /// The headline.
  public var title: String
  /// A short summary.
  public var description: String?
  /// The author as the provider gave it: a name, several names, an e-mail address or even a URL.
  public var author: String?
  /// Who wrote it: the publication it appeared in (newsapi.org's `source.name`), where the
  /// provider says; where it came from is ``provider``.
  public var publisher: String?
  /// Where the full article can be read.
  public var url: String?
  /// An illustration, if there is one.
  public var imageURL: String?
  /// When it was published or last updated.
  public var publishedAt: Date?
  /// The body as the provider gave it (newsapi.org cuts it and may leave HTML in it).
  public var content: String?
  /// The categories its feed filed it under (RSS `<category>`, Atom `category term`, JSON
  /// Feed `tags`): what `category:` searches; empty for the other providers.
  public var categories: [String] = []

  /// Creates an article.
  public init(
    id: String, provider: String, title: String, description: String? = nil,
    author: String? = nil, publisher: String? = nil, url: String? = nil, imageURL: String? = nil,
    publishedAt: Date? = nil, content: String? = nil
  ) {
    self.id = id
    self.provider = provider
    self.title = title
    self.description = description
    self.author = author
    self.publisher = publisher
    self.url = url
    self.imageURL = imageURL
    self.publishedAt = publishedAt
    self.content = content
  }

  enum CodingKeys: String, CodingKey {
    case id, provider, title, description, author, url
    case publisher = "source"
    case imageURL = "imageUrl"
    case publishedAt, content, categories
  }

  /// Decodes an article; one written before categories were kept has none.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    provider = try container.decode(String.self, forKey: .provider)
    title = try container.decode(String.self, forKey: .title)
    description = try container.decodeIfPresent(String.self, forKey: .description)
    author = try container.decodeIfPresent(String.self, forKey: .author)
    publisher = try container.decodeIfPresent(String.self, forKey: .publisher)
    url = try container.decodeIfPresent(String.self, forKey: .url)
    imageURL = try container.decodeIfPresent(String.self, forKey: .imageURL)
    publishedAt = try container.decodeIfPresent(Date.self, forKey: .publishedAt)
    content = try container.decodeIfPresent(String.self, forKey: .content)
    categories = try container.decodeIfPresent([String].self, forKey: .categories) ?? []
  }

  /// Encodes the article; no categories, no key.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(provider, forKey: .provider)
    try container.encode(title, forKey: .title)
    try container.encodeIfPresent(description, forKey: .description)
    try container.encodeIfPresent(author, forKey: .author)
    try container.encodeIfPresent(publisher, forKey: .publisher)
    try container.encodeIfPresent(url, forKey: .url)
    try container.encodeIfPresent(imageURL, forKey: .imageURL)
    try container.encodeIfPresent(publishedAt, forKey: .publishedAt)
    try container.encodeIfPresent(content, forKey: .content)
    if !categories.isEmpty { try container.encode(categories, forKey: .categories) }
  }
}

extension Array where Element == Article {
  /// The articles with duplicate ids left out, the first of each kept: the same URL (or, for
  /// providers without URLs, the same id) is the same article, listed once.
  public func uniquedByID() -> [Article] {
    var seen = Set<String>()
    return filter { seen.insert($0.id).inserted }
  }
}
