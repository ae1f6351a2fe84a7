import FeedParsing
import Foundation

/// The article a page holds, extracted (`news show --full`, sources with `"fullText": true`)
/// and kept beside the article in the store.
public struct FullText: Sendable, Equatable, Codable {
  /// The page it was extracted from (after redirects).
  public var url: String
  public var title: String?
  public var byline: String?
  public var siteName: String?
  public var excerpt: String?
  public var imageURL: String?
  public var publishedAt: Date?
  public var extractedAt: Date
  /// The article's body as simple HTML (what ``text`` renders).
  public var html: String

  /// Creates a full text.
  public init(
    url: String, title: String?, byline: String?, siteName: String?, excerpt: String?,
    imageURL: String?, publishedAt: Date?, extractedAt: Date, html: String
  ) {
    self.url = url
    self.title = title
    self.byline = byline
    self.siteName = siteName
    self.excerpt = excerpt
    self.imageURL = imageURL
    self.publishedAt = publishedAt
    self.extractedAt = extractedAt
    self.html = html
  }

  /// The text as `show` prints it: paragraphs, headings, lists, quotes, links numbered and
  /// listed at the end.
  public var text: String { HTMLText.content(html) }

  /// The text alone (no list of links): what search reads and words count.
  public var plainText: String { HTMLText.plain(html) }

  /// Words of the text.
  public var words: Int { ArticleExtractor.wordCount(plainText) }
}
