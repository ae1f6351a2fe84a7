import FeedParsing
import Foundation

/// The query language over the stored articles: `news search <query>` and the bulk marks
/// (`read|unread|bookmark --where`), one evaluator for both.
extension ListService {
  /// What `query` needs to know besides the articles (read marks, bookmarks, kept full texts,
  /// enclosures, downloads, tags), read once, as of `now`.
  public func facts(for query: ArticleQuery, except known: ArticleQuery.Needs = []) throws
    -> QueryFacts
  {
    try store.facts(for: query, except: known, now: context.now(), tags: sourceTags)
  }

  /// What the killfile's query rules need (read only when one is a query): what each rule asks
  /// that cannot be read is left unknown, as if absent.
  func ignoreFacts() -> QueryFacts {
    var needs: ArticleQuery.Needs = []
    for rule in ignoreRules where rule.field == .query {
      if let query = try? ArticleQuery(rule.pattern, timeZone: context.timeZone) {
        needs.formUnion(query.needs)
      }
    }
    return (try? store.facts(needs: needs, now: context.now(), tags: sourceTags))
      ?? QueryFacts(now: context.now())
  }

  /// The stored (and bookmarked, and kept full-text) articles `query` matches, newest first;
  /// with `limit`, the search stops once it has the newest `limit` (``ListResult/isPartial``).
  public func search(_ query: ArticleQuery, limit: Int?, unreadOnly: Bool = false) throws
    -> ListResult
  {
    let facts = try facts(for: query)
    let found = try store.search(QueryMatcher(query, facts: facts), limit: unreadOnly ? nil : limit)
    try facts.readMarkShards?.check()
    var result = unkeyedSearch(found.articles, limit: limit, unreadOnly: unreadOnly)
    result.isPartial = !found.complete
    result.matchedInFullText = found.inFullText
    result.warnings += found.warnings
    return result
  }

  /// Every stored article `query` matches, as `news search` lists them (bulk marks; no limit,
  /// no list kept).
  public func matching(_ query: ArticleQuery) throws -> (articles: [Article], warnings: [String]) {
    let facts = try facts(for: query)
    let found = try store.search(QueryMatcher(query, facts: facts))
    try facts.readMarkShards?.check()
    return (found.articles, found.warnings)
  }

  /// How many of `ids` a bulk mark would change: those not read yet (`read`), those read
  /// (`unread`), those not bookmarked (`bookmark`).
  public func wouldChange(_ ids: [String], mark: BulkMark) throws -> Int {
    switch mark {
    case .read: return ids.count - (try store.readMarks(of: ids).marked(ids).count)
    case .unread: return try store.readMarks(of: ids).marked(ids).count
    case .bookmark:
      let bookmarked = Set(try store.bookmarks().map(\.id))
      return ids.filter { !bookmarked.contains($0) }.count
    }
  }
}

/// A mark made in bulk (`--where`).
public enum BulkMark: Sendable {
  case read, unread, bookmark
}
