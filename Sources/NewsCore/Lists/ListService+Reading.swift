extension ListService {
  /// The article `reference` names (an id, a number of the last list, a unique prefix, a URL;
  /// ``ArticleReference``).
  public func article(_ reference: String) throws -> Article {
    try ArticleReference.resolve(reference, in: store)
  }

  /// What a reader shows beside a list of `articles`: which are read and which bookmarked; with
  /// `unreadOnly`, the read ones left out. Marks or bookmarks that cannot be read count as none.
  public func readingState(of articles: [Article], unreadOnly: Bool) -> ReadingState {
    var filter = IgnoreFilter(ignoreRules)
    let articles = filter.isEmpty ? articles : articles.filter { !filter.ignores($0) }
    let ids = articles.map(\.id)
    let read = ((try? store.readMarks(of: ids)) ?? ReadMarks()).marked(ids)
    return ReadingState(
      articles: unreadOnly ? articles.filter { !read.contains($0.id) } : articles, read: read,
      bookmarked: Set(((try? store.bookmarks()) ?? []).map(\.id)))
  }

  /// Marks the article `id` read because it was shown (`show`, `open`, the reader): shown means read.
  /// A store that cannot say so does not hold the article back: the answer says whether it is
  /// read now and, when the mark could not be written, why.
  public func shown(_ id: String) -> (read: Bool, warning: String?) {
    do {
      try store.markRead([id], counting: false)
      return (true, nil)
    } catch {
      let read = (try? store.readMarks(of: [id]).contains(id)) ?? false
      return (read, "not marked read: " + ((error as? any NewsError)?.message ?? "\(error)"))
    }
  }

  /// Marks the articles `ids` read, or unread again (a reader's `A`, and its undo), appending
  /// to the log without reading the other marks.
  public func setRead(_ ids: [String], _ read: Bool) throws {
    if read {
      try store.markRead(ids, counting: false)
    } else {
      try store.markUnread(ids, counting: false)
    }
  }

  /// Bookmarks `article`, or removes its bookmark.
  public func setBookmark(_ article: Article, _ on: Bool) throws {
    if on {
      try store.addBookmarks([article])
    } else {
      try store.removeBookmarks([article.id])
    }
  }
}

/// A list as a reader shows it: its articles, and which of them are read and bookmarked.
public struct ReadingState: Sendable, Equatable {
  /// The articles shown.
  public var articles: [Article]
  /// The ids of those read.
  public var read: Set<String>
  /// The ids of those bookmarked.
  public var bookmarked: Set<String>

  /// Creates the state of a list.
  public init(articles: [Article], read: Set<String>, bookmarked: Set<String>) {
    self.articles = articles
    self.read = read
    self.bookmarked = bookmarked
  }
}
