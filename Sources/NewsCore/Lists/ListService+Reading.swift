import FeedParsing
import Foundation

extension ListService {
  /// The article `reference` names (an id, a number of the last list, a unique prefix, a URL;
  /// ``ArticleReference``).
  public func article(_ reference: String) throws -> Article {
    try ArticleReference.resolve(reference, in: store)
  }

  /// The articles `references` name, in their order (``ArticleReference/resolveAll(_:in:)``:
  /// full ids looked up at once).
  public func articles(_ references: [String]) throws -> [Article] {
    try ArticleReference.resolveAll(references, in: store)
  }

  /// What a reader shows beside a list of `articles`: which are read and which bookmarked; with
  /// `unreadOnly`, the read ones left out. Marks or bookmarks that cannot be read count as none,
  /// and say why in ``ReadingState/warnings``.
  public func readingState(of articles: [Article], unreadOnly: Bool) -> ReadingState {
    var filter = IgnoreFilter(ignoreRules, facts: ignoreFacts(), timeZone: context.timeZone)
    let articles = filter.isEmpty ? articles : articles.filter { !filter.ignores($0) }
    let ids = articles.map(\.id)
    let (marks, warnings) = readMarksOrWarning(of: ids)
    let read = marks.marked(ids)
    var state = ReadingState(
      articles: unreadOnly ? articles.filter { !read.contains($0.id) } : articles, read: read,
      bookmarked: [])
    state.warnings = warnings + filter.warnings
    do {
      state.bookmarked = Set(try store.bookmarks().map(\.id))
    } catch {
      state.warnings.append(
        "bookmarks unavailable: " + ((error as? any NewsError)?.message ?? "\(error)"))
    }
    return state
  }

  /// The enclosures kept for article `id` (podcast episodes, attachments).
  public func enclosures(of id: String) throws -> [Enclosure] {
    try store.enclosures(of: id)
  }

  /// When each of `ids` was first seen (by `feed` or `sync`), for those recorded.
  public func arrivals(of ids: [String]) throws -> [String: Date] {
    try store.arrivals(of: ids)
  }

  /// The audio and video (podcast episodes) of those of `ids` that carry some.
  public func media(among ids: [String]) throws -> [String: [Enclosure]] {
    try store.enclosures(among: ids).compactMapValues { enclosures in
      let media = enclosures.filter(\.isMedia)
      return media.isEmpty ? nil : media
    }
  }

  /// Which of `ids` have a downloaded file (`news download`, browse's `d`) still on disk: one
  /// deleted since is no longer marked.
  public func downloaded(among ids: [String]) throws -> Set<String> {
    let wanted = Set(ids)
    return Set(
      try store.downloads().values.filter {
        $0.isFinished && wanted.contains($0.article)
          && FileManager.default.fileExists(atPath: $0.path)
      }.map(\.article))
  }

  /// Which of `ids` have their full text kept.
  public func fullTexts(among ids: [String]) throws -> Set<String> {
    try store.fullTexts(among: ids)
  }

  /// Marks the article `id` read because it was shown (`show`, `open`, the reader): shown means read.
  /// A store that cannot say so does not hold the article back: the answer says whether it is
  /// read now and, when the mark could not be written (or queued for its account), why.
  public func shown(_ id: String) -> (read: Bool, warning: String?) {
    do {
      let warnings = try mark([id], read: true).warnings
      return (true, warnings.isEmpty ? nil : warnings.joined(separator: "; "))
    } catch {
      let read = (try? store.readMarks(of: [id]).contains(id)) ?? false
      return (read, "not marked read: " + ((error as? any NewsError)?.message ?? "\(error)"))
    }
  }

  /// What a change of read state or bookmarks did: how many changed (when counted) and what the
  /// user should know (a mark that could not be queued for its account's server).
  public struct MarkResult: Sendable, Equatable {
    /// How many articles changed (0 when not counted).
    public var count: Int
    /// The ids asked for that were not bookmarked (``unbookmark(_:)``).
    public var missing: [String] = []
    /// Warnings to show.
    public var warnings: [String] = []
  }

  /// Marks the articles `ids` read, or unread again: queued first for the servers of the
  /// accounts they belong to (so that a crash in between loses nothing), then made here.
  /// With `counting`, reads the marks to say how many changed; without, appends to the log.
  /// An account file that cannot be read costs only the queueing (a warning): local reading
  /// never depends on it.
  @discardableResult
  public func mark(_ ids: [String], read: Bool, counting: Bool = false) throws -> MarkResult {
    let warnings = queue(ids, read ? .read : .unread)
    let count =
      read
      ? try store.markRead(ids, counting: counting) : try store.markUnread(ids, counting: counting)
    return MarkResult(count: count, warnings: warnings)
  }

  /// Marks every stored article of the source `source` read (`news read --all --source`,
  /// browse's `A` on a whole list): for an account's feed, one mark of the whole feed is queued
  /// for its server (Fever `mark=feed`, Google Reader `mark-all-as-read`), not one an item.
  @discardableResult
  public func markSourceRead(_ source: String, ids: [String]? = nil) throws -> MarkResult {
    let ids = try ids ?? store.articles(provider: source).map(\.id)
    let warnings: [String]
    do {
      let wholeFeed = try outbox?.noteFeedRead(source: source, before: context.now()) ?? false
      warnings = wholeFeed ? [] : queue(ids, .read)
    } catch {
      warnings = [Self.notQueued(error)]
    }
    return MarkResult(count: try store.markRead(ids, counting: true), warnings: warnings)
  }

  /// What `news unread <references>` unmarks: the articles they name and, for an id whose article
  /// retention dropped while its read mark remains, the id itself (`marksOnly`).
  ///
  /// - Throws: ``LookupError`` for a reference that names neither.
  public func unreadTargets(_ references: [String]) throws -> (
    articles: [Article], marksOnly: [String]
  ) {
    var articles: [Article] = []
    var marksOnly: [String] = []
    var marks: ReadMarks?
    // Full ids looked up at once, not one pass over the store each.
    let exact = try ArticleReference.exactMatches(references, in: store)
    for reference in references {
      if let found = exact[reference] {
        articles.append(found)
        continue
      }
      do {
        articles.append(try article(reference))
      } catch let error as LookupError {
        let known = try marks ?? store.readMarks(of: references)
        marks = known
        guard known.contains(reference) else { throw error }
        marksOnly.append(reference)
      }
    }
    return (articles, marksOnly)
  }

  /// Bookmarks `articles` (queued as saved for their accounts first); counts the new ones.
  @discardableResult
  public func bookmark(_ articles: [Article]) throws -> MarkResult {
    let warnings = queue(articles.map(\.id), .saved)
    return MarkResult(count: try store.addBookmarks(articles), warnings: warnings)
  }

  /// Removes the bookmarks of `ids` (queued as unsaved for their accounts first); the result's
  /// `missing` names those that were not bookmarked.
  @discardableResult
  public func unbookmark(_ ids: [String]) throws -> MarkResult {
    let warnings = queue(ids, .unsaved)
    let missing = try store.removeBookmarks(ids)
    return MarkResult(count: ids.count - missing.count, missing: missing, warnings: warnings)
  }

  /// Marks the articles `ids` read, or unread again (a reader's `A`, and its undo), appending
  /// to the log without reading the other marks.
  @discardableResult
  public func setRead(_ ids: [String], _ read: Bool) throws -> [String] {
    try mark(ids, read: read).warnings
  }

  /// Bookmarks `article`, or removes its bookmark.
  @discardableResult
  public func setBookmark(_ article: Article, _ on: Bool) throws -> [String] {
    try (on ? bookmark([article]) : unbookmark([article.id])).warnings
  }

  /// Queues `change` of `ids` for their accounts' servers; what could not be queued is a
  /// warning (the change is made here all the same).
  private func queue(_ ids: [String], _ change: AccountMark.Change) -> [String] {
    guard let outbox else { return [] }
    do {
      try outbox.note(ids, change)
      return []
    } catch {
      return [Self.notQueued(error)]
    }
  }

  /// The warning for a change made here that could not be queued for its account's server.
  private static func notQueued(_ error: any Error) -> String {
    "not queued for your account's server (the change is made here): "
      + ((error as? any NewsError)?.message ?? "\(error)")
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
  /// What could not be read (the read marks, the bookmarks), for the reader to show.
  public var warnings: [String] = []

  /// Creates the state of a list.
  public init(articles: [Article], read: Set<String>, bookmarked: Set<String>) {
    self.articles = articles
    self.read = read
    self.bookmarked = bookmarked
  }
}
