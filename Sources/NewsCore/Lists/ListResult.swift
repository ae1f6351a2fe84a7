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
