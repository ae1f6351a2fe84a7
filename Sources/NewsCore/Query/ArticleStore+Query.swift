import Foundation

/// The store searched and its facts read for the query language: the store knows records and
/// their filters (``RecordFilter``); the language is this folder's.
extension ArticleStore {
  /// The stored and bookmarked articles, and those whose kept full text, that `query` matches
  /// (its facts read by the caller), newest first; with `limit`, at least the newest `limit`
  /// (``ArticleSegments/newestMatches(_:limit:cutoff:)``).
  public func search(_ query: QueryMatcher, limit: Int? = nil) throws -> (
    articles: [Article], complete: Bool, inFullText: Set<String>, warnings: [String]
  ) {
    var filter = QueryRecordFilter(query)
    let found = try search(&filter, limit: limit)
    if let shards = filter.unreadOnly { keepFullyRead(shards) }
    return (found.articles, found.complete, found.inFullText, filter.matcher.warnings)
  }

  /// What `query` needs to know besides the articles (read marks, bookmarks, kept full texts,
  /// enclosures, downloads; `tags` asked only for `tag:`), read once, as of `now`; not what
  /// `known` says the caller has.
  public func facts(
    for query: ArticleQuery, except known: ArticleQuery.Needs = [], now: Date,
    tags: () -> [String: Set<String>]
  ) throws -> QueryFacts {
    // A query the word index narrows reads only the read marks of what it leaves; one whose
    // matches are all unread passes over the segments known read through, without their marks.
    let byShard =
      query.needs.contains(.readMarks) && (!query.wordBranches.isEmpty || query.requiresUnread)
    var facts = try facts(
      needs: query.needs.subtracting(known).subtracting(byShard ? .readMarks : []), now: now,
      tags: tags)
    if byShard, !known.contains(.readMarks) {
      facts.readMarkShards = readMarkShards(unreadOnly: query.requiresUnread)
    }
    return facts
  }

  /// The facts `needs` names, read once, as of `now`.
  public func facts(needs: ArticleQuery.Needs, now: Date, tags: () -> [String: Set<String>])
    throws -> QueryFacts
  {
    var facts = QueryFacts(now: now)
    if needs.contains(.readMarks) { facts.readMarks = try readMarks() }
    if needs.contains(.bookmarks) { facts.bookmarked = Set(try bookmarks().map(\.id)) }
    if needs.contains(.enclosures) { facts.withEnclosures = try idsWithEnclosures() }
    if needs.contains(.fullTexts) { facts.withFullText = Set(try allFullTexts().keys) }
    if needs.contains(.downloads) {
      facts.downloaded = Set(try downloads().values.filter(\.isFinished).map(\.article))
    }
    if needs.contains(.tags) { facts.tags = tags() }
    return facts
  }
}
