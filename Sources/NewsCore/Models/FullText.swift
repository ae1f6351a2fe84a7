import FeedParsing
import Foundation

/// The article a page holds, extracted (`news show --full`, sources with `"fullText": true`)
/// and kept beside the article in the store: the extractor's ``ExtractedArticle`` with where it
/// came from and when. Its stored form is the flat JSON object of earlier versions.
public struct FullText: Sendable, Equatable, Codable {
  /// The page it was extracted from (after redirects).
  public var url: String
  public var extractedAt: Date
  /// What the extractor found: metadata and the body as simple HTML.
  var extracted: ExtractedArticle

  public var title: String? {
    get { extracted.title }
    set { extracted.title = newValue }
  }
  public var byline: String? {
    get { extracted.byline }
    set { extracted.byline = newValue }
  }
  public var siteName: String? {
    get { extracted.siteName }
    set { extracted.siteName = newValue }
  }
  public var excerpt: String? {
    get { extracted.excerpt }
    set { extracted.excerpt = newValue }
  }
  public var imageURL: String? {
    get { extracted.imageURL }
    set { extracted.imageURL = newValue }
  }
  public var publishedAt: Date? {
    get { extracted.publishedAt }
    set { extracted.publishedAt = newValue }
  }
  /// The article's body as simple HTML (what ``text`` renders).
  public var html: String { extracted.html }

  /// Creates a full text.
  public init(
    url: String, title: String?, byline: String?, siteName: String?, excerpt: String?,
    imageURL: String?, publishedAt: Date?, extractedAt: Date, html: String
  ) {
    self.init(
      url: url, extractedAt: extractedAt,
      extracted: ExtractedArticle(
        title: title, byline: byline, siteName: siteName, excerpt: excerpt, imageURL: imageURL,
        publishedAt: publishedAt, html: html))
  }

  /// The full text of what the extractor found at `url`.
  init(url: String, extractedAt: Date, extracted: ExtractedArticle) {
    self.url = url
    self.extractedAt = extractedAt
    self.extracted = extracted
  }

  /// The text as `show` prints it: paragraphs, headings, lists, quotes, links numbered and
  /// listed at the end.
  public var text: String { extracted.text }

  /// The text alone (no list of links): what search reads and words count.
  public var plainText: String { extracted.plainText }

  /// Words of the text.
  public var words: Int { extracted.words }

  private enum Keys: String, CodingKey {
    case url, title, byline, siteName, excerpt, imageURL, publishedAt, extractedAt, html
  }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: Keys.self)
    self.init(
      url: try values.decode(String.self, forKey: .url),
      title: try values.decodeIfPresent(String.self, forKey: .title),
      byline: try values.decodeIfPresent(String.self, forKey: .byline),
      siteName: try values.decodeIfPresent(String.self, forKey: .siteName),
      excerpt: try values.decodeIfPresent(String.self, forKey: .excerpt),
      imageURL: try values.decodeIfPresent(String.self, forKey: .imageURL),
      publishedAt: try values.decodeIfPresent(Date.self, forKey: .publishedAt),
      extractedAt: try values.decode(Date.self, forKey: .extractedAt),
      html: try values.decode(String.self, forKey: .html))
  }

  public func encode(to encoder: any Encoder) throws {
    var values = encoder.container(keyedBy: Keys.self)
    try values.encode(url, forKey: .url)
    try values.encodeIfPresent(title, forKey: .title)
    try values.encodeIfPresent(byline, forKey: .byline)
    try values.encodeIfPresent(siteName, forKey: .siteName)
    try values.encodeIfPresent(excerpt, forKey: .excerpt)
    try values.encodeIfPresent(imageURL, forKey: .imageURL)
    try values.encodeIfPresent(publishedAt, forKey: .publishedAt)
    try values.encode(extractedAt, forKey: .extractedAt)
    try values.encode(html, forKey: .html)
  }
}
