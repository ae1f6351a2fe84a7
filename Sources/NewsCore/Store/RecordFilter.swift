import Foundation

/// What a search of the stored articles asks of each record: the folded words every match
/// holds (the segments' index narrows by them), and the decision on a record the index left.
/// ``ArticleSearch/Matcher`` (plain words) and ``QueryRecordFilter`` (the query language) are its two.
protocol RecordFilter {
  /// Words every match holds in its title or text; none: every record is read.
  var foldedWords: [[UInt8]] { get }
  /// The only providers whose segments can hold a match (a query's `tag:`); `nil`: any.
  var providers: Set<String>? { get }
  /// Whether `article`, first seen at `seenAt` (when known), matches.
  mutating func accepts(_ article: Article, seenAt: Date?) -> Bool
}

extension ArticleSearch.Matcher: RecordFilter {
  var providers: Set<String>? { nil }

  mutating func accepts(_ article: Article, seenAt: Date?) -> Bool {
    matches([article.title, article.description, article.content])
  }
}
