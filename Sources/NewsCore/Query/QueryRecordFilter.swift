import Foundation

/// A query of the language as a ``RecordFilter``.
struct QueryRecordFilter: RecordFilter {
  var matcher: QueryMatcher
  let wordBranches: [[[UInt8]]]
  let providers: Set<String>?
  let admissionKeys: Set<UInt64>?

  init(_ matcher: QueryMatcher) {
    self.matcher = matcher
    let branches = matcher.query.wordBranches
    wordBranches = branches.isEmpty ? [[]] : branches
    admissionKeys = matcher.namedIDs.map { Set($0.map(ReadMarks.key)) }
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

  var unreadOnly: ReadMarkShards? {
    guard matcher.facts.readIDs == nil, matcher.query.requiresUnread else { return nil }
    return matcher.facts.readMarkShards
  }
}
