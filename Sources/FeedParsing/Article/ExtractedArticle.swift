import Foundation

/// The article a page holds, as ``ArticleExtractor`` found it: what the page says of it and its
/// text as simple HTML (paragraphs, headings, lists, quotes, preformatted blocks, tables as
/// rows, figures with captions, images, links made absolute), ready for ``HTMLText``.
package struct ExtractedArticle: Sendable, Equatable, Codable {
  package var title: String?
  package var byline: String?
  package var siteName: String?
  package var excerpt: String?
  package var imageURL: String?
  package var publishedAt: Date?
  /// The article's body as simple HTML.
  package var html: String
  /// Words of its text.
  package var words: Int

  package init(
    title: String? = nil, byline: String? = nil, siteName: String? = nil, excerpt: String? = nil,
    imageURL: String? = nil, publishedAt: Date? = nil, html: String, words: Int? = nil
  ) {
    self.words = words ?? ArticleExtractor.wordCount(HTMLText.plain(html))
    self.title = title
    self.byline = byline
    self.siteName = siteName
    self.excerpt = excerpt
    self.imageURL = imageURL
    self.publishedAt = publishedAt
    self.html = html
  }

  /// The text as `show` prints it: structure kept, links numbered and listed.
  package var text: String { HTMLText.content(html) }

  /// The text without the list of links (what is searched and counted).
  package var plainText: String { HTMLText.plain(html) }
}

/// Per-source rules for sites that defeat the general method (`"extract"` in config.json):
/// `keep` picks the article's elements, `drop` removes elements before anything else.
package struct ExtractionRules: Sendable, Equatable {
  package var keep: CSSSelector?
  package var drop: CSSSelector?

  package init(keep: CSSSelector? = nil, drop: CSSSelector? = nil) {
    self.keep = keep
    self.drop = drop
  }
}
