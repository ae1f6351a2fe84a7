import Foundation

/// A stored article with when it was last seen in a response.
///
/// Encoded flat, with times as plain numbers: this is what every search decodes, 10,000 at a
/// time, and nesting and date strategies made that several times slower.
struct StoredArticle: Codable, Sendable {
  var article: Article
  var seenAt: Date

  init(article: Article, seenAt: Date) {
    self.article = article
    self.seenAt = seenAt
  }

  private enum CodingKeys: String, CodingKey {
    case id, provider, title, description, author, source, url
    case imageURL = "imageUrl"
    case publishedAt, content, seenAt, categories
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    article = Article(
      id: try container.decode(String.self, forKey: .id),
      provider: try container.decode(String.self, forKey: .provider),
      title: try container.decode(String.self, forKey: .title),
      description: try container.decodeIfPresent(String.self, forKey: .description),
      author: try container.decodeIfPresent(String.self, forKey: .author),
      publisher: try container.decodeIfPresent(String.self, forKey: .source),
      url: try container.decodeIfPresent(String.self, forKey: .url),
      imageURL: try container.decodeIfPresent(String.self, forKey: .imageURL),
      publishedAt: try container.decodeIfPresent(Double.self, forKey: .publishedAt)
        .map(Date.init(timeIntervalSince1970:)),
      content: try container.decodeIfPresent(String.self, forKey: .content))
    article.categories = try container.decodeIfPresent([String].self, forKey: .categories) ?? []
    seenAt = Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .seenAt))
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(article.id, forKey: .id)
    try container.encode(article.provider, forKey: .provider)
    try container.encode(article.title, forKey: .title)
    try container.encodeIfPresent(article.description, forKey: .description)
    try container.encodeIfPresent(article.author, forKey: .author)
    try container.encodeIfPresent(article.publisher, forKey: .source)
    try container.encodeIfPresent(article.url, forKey: .url)
    try container.encodeIfPresent(article.imageURL, forKey: .imageURL)
    try container.encodeIfPresent(article.publishedAt?.timeIntervalSince1970, forKey: .publishedAt)
    try container.encodeIfPresent(article.content, forKey: .content)
    try container.encode(seenAt.timeIntervalSince1970, forKey: .seenAt)
    if !article.categories.isEmpty {
      try container.encode(article.categories, forKey: .categories)
    }
  }
}
