import NewsCore

/// Which articles are read and which starred (bookmarked), as the store has them now.
struct ServedMarks: Sendable {
  /// The read marks.
  var read: ReadMarks
  /// The ids of the bookmarked articles.
  var starred: Set<String>

  /// Reads them from `store`.
  static func load(_ store: ArticleStore) throws -> ServedMarks {
    ServedMarks(read: try store.readMarks(), starred: Set(try store.bookmarks().map(\.id)))
  }

  /// Whether `item` is read.
  func isRead(_ item: ServedItem) -> Bool { read.contains(item.id) }

  /// Whether `item` is starred.
  func isStarred(_ item: ServedItem) -> Bool { starred.contains(item.id) }
}
