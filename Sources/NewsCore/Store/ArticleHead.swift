import Foundation

/// What a list of every stored article needs of each: its id, its source and when it was
/// published. Read from the segments without building its text (``ArticleStore/allArticleHeads()``),
/// so that a list of a million costs its ids, not its articles; the article itself is read for
/// the page that shows it (``ArticleStore/articles(of:)``).
public struct ArticleHead: Sendable, Equatable {
  /// The article's id.
  public var id: String
  /// The provider or source it is stored under.
  public var provider: String
  /// When it was published, when known.
  public var publishedAt: Date?
  /// Where it was read from: its segment's number and its record's there (the article is read
  /// from it directly while that segment stands).
  var place: (segment: Int, record: Int)?

  public init(id: String, provider: String, publishedAt: Date?) {
    self.id = id
    self.provider = provider
    self.publishedAt = publishedAt
  }

  /// The head of `article`.
  public init(_ article: Article) {
    self.init(id: article.id, provider: article.provider, publishedAt: article.publishedAt)
  }

  /// Heads are the same article's when their id, provider and publication are (wherever read).
  public static func == (lhs: ArticleHead, rhs: ArticleHead) -> Bool {
    lhs.id == rhs.id && lhs.provider == rhs.provider && lhs.publishedAt == rhs.publishedAt
  }
}
