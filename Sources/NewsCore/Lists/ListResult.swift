import FeedParsing

/// A list ready to be shown: the articles, where they came from, and what the user should know.
public struct ListResult: Sendable {
  /// The articles shown (cut to the limit), with the provider's total.
  public var list: ArticleList
  /// Where they came from.
  public var freshness: ListFreshness
  /// Warnings for standard error: items left out, stale data standing in.
  public var warnings: [String]
  /// The store could not keep the list (it is shown all the same; the command then fails).
  public var notKept: (any NewsError)?
  /// The ids of the shown articles that are read.
  public var read: Set<String> = []
  /// How many articles of the whole list (before `--limit`) are unread.
  public var unreadCount = 0
  /// The list's total counts only what was read: a search with a limit stopped once the rest
  /// could not hold a newer match, so there may be more (the header says `20 of 57+`).
  public var isPartial = false
  /// For a search: the ids of the articles found only in their kept full text (`nil` for
  /// other lists).
  public var matchedInFullText: Set<String>?
  /// The enclosures of the shown articles that have some, by id.
  public var enclosures: [String: [Enclosure]] = [:]

  /// Creates a result.
  public init(
    list: ArticleList, freshness: ListFreshness, warnings: [String] = [],
    notKept: (any NewsError)? = nil
  ) {
    self.list = list
    self.freshness = freshness
    self.warnings = warnings
    self.notKept = notKept
  }
}
