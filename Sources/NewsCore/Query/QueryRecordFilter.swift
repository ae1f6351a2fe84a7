import Foundation

/// A query of the language as a ``RecordFilter``.
struct QueryRecordFilter: RecordFilter {
  var matcher: QueryMatcher
  let wordBranches: [[IndexRun]]
  let providers: Set<String>?
  let admissionKeys: Set<UInt64>?
  /// The sources every match comes from (``ArticleQuery/requiredSources``).
  let sources: [Set<String>]
  /// The dates every match is dated in (``ArticleQuery/dateRange(now:)``).
  let dates: DateRange?

  init(_ matcher: QueryMatcher) {
    self.matcher = matcher
    let branches = matcher.query.wordBranches
    wordBranches = branches.isEmpty ? [[]] : branches
    admissionKeys = matcher.namedIDs.map { Set($0.map(ReadMarks.key)) }
    sources = matcher.query.requiredSources
    dates = matcher.query.dateRange(now: matcher.facts.now)
    // Every match has each required tag: only the sources that do can hold one.
    let tags = matcher.query.requiredTags
    providers =
      tags.isEmpty
      ? nil : Set(matcher.facts.tags.filter { tags.isSubset(of: $0.value) }.keys)
  }

  mutating func accepts(_ article: Article, seenAt: Date?) -> Bool {
    matcher.matches(article, seenAt: seenAt)
  }

  var filtersByID: Bool { !matcher.query.requiredStates.isEmpty }

  func admits(id: String) -> Bool { matcher.admits(id: id) }

  func passesOver(_ summary: SegmentSummary) -> Bool {
    if let dates, !summary.mayHold(datedIn: dates) { return true }
    return sources.contains { names in !names.contains { summary.mayHold(source: $0) } }
  }

  func passesOver(chunkNewest newest: Double, in summary: SegmentSummary) -> Bool {
    guard let dates else { return false }
    return !summary.mayHold(chunkNewest: newest, datedIn: dates)
  }

  var unreadOnly: ReadMarkShards? {
    guard matcher.facts.readIDs == nil, matcher.query.requiresUnread else { return nil }
    return matcher.facts.readMarkShards
  }
}
