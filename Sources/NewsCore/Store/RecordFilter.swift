import Foundation

/// What a search of the stored articles asks of each record: the folded words every match
/// holds (the segments' index narrows by them), and the decision on a record the index left.
/// ``ArticleSearch/Matcher`` (plain words) and ``QueryRecordFilter`` (the query language) are its two.
protocol RecordFilter {
  /// The runs every match holds in its title or text (``IndexRun``: a query word's longest, a
  /// regular expression's literal words), as alternatives (each match holds every run of one
  /// branch): the index narrows to the records of each together. One branch for a search of
  /// words; one empty branch: every record is read.
  var wordBranches: [[IndexRun]] { get }
  /// The only providers whose segments can hold a match (a query's `tag:`); `nil`: any.
  var providers: Set<String>? { get }
  /// Whether `article`, first seen at `seenAt` (when known), matches.
  mutating func accepts(_ article: Article, seenAt: Date?) -> Bool
  /// Whether ``admits(id:)`` can turn records away by their id alone (a state every match has).
  var filtersByID: Bool { get }
  /// Whether the record with id `id` may match at all, asked before it is read: `is:unread`
  /// turns away every read article without decoding it.
  func admits(id: String) -> Bool
  /// The read marks, when every match is unread (`is:unread`, `-is:read`): a segment every
  /// article of which is read is passed over (``skips(_:)``), and one found so is noted.
  var unreadOnly: ReadMarkShards? { get }
  /// The keys (``ReadMarks/key(_:)``) of the only ids a match can have, when a state every
  /// match is in names a few (`is:bookmarked`, `has:enclosure`): the segments' ids are matched
  /// against them as bytes, and only those that match are asked ``admits(id:)``.
  var admissionKeys: Set<UInt64>? { get }
  /// Whether no record of a segment so summarized can match (every match of `source:hn` comes
  /// from a source named so, every match of `age>2d` is dated before two days ago).
  func passesOver(_ summary: SegmentSummary) -> Bool
  /// Whether no record of a chunk whose newest publication date is `newest`, of a segment so
  /// summarized, can match (`date:` after its records' dates).
  func passesOver(chunkNewest newest: Double, in summary: SegmentSummary) -> Bool
}

extension RecordFilter {
  /// Each of ``wordBranches``, its longest runs first (one usually narrows most, and the others
  /// are then read only for the records left).
  var indexRuns: [[IndexRun]] {
    wordBranches.map { branch in branch.sorted { $0.bytes.count > $1.bytes.count } }
  }

  var filtersByID: Bool { false }
  func admits(id: String) -> Bool { true }
  var unreadOnly: ReadMarkShards? { nil }
  var admissionKeys: Set<UInt64>? { nil }
  func passesOver(_ summary: SegmentSummary) -> Bool { false }
  func passesOver(chunkNewest newest: Double, in summary: SegmentSummary) -> Bool { false }

  /// `candidates` (every record of `segment` when `nil`) without the records of the chunks
  /// ``passesOver(chunkNewest:in:)`` turns away: a date range reads the chunks of a large
  /// segment that may hold its dates.
  func dated(_ candidates: Set<Int>?, of segment: SegmentReader) -> Set<Int>? {
    guard let summary = segment.info.summary, let dates = segment.chunkNewest,
      candidates?.isEmpty != true
    else { return candidates }
    let passed = dates.indices.filter { passesOver(chunkNewest: dates[$0], in: summary) }
    guard !passed.isEmpty else { return candidates }
    let size = SegmentBuilder.chunkSize
    let passedOver = Set(passed)
    return (candidates ?? Set(0..<segment.info.count)).filter { !passedOver.contains($0 / size) }
  }

  /// Whether segment `info` holds no match, known without opening it: every match is unread,
  /// and every article of the segment was read (``FullyReadSegments``); or every match is one
  /// of a few ids, and there are none (nothing bookmarked, for `is:bookmarked`); or its
  /// summary says none of its records is of the sources or dates every match is.
  func skips(_ info: SegmentInfo) -> Bool {
    admissionKeys?.isEmpty == true || unreadOnly?.isFullyRead(info.number) == true
      || info.summary.map(passesOver) == true
  }

  /// `candidates` (every record of `segment` when `nil`) without those ``admits(id:)`` turns
  /// away, by the segment's ids; as they were when the ids cannot be read (reading the records
  /// then meets the damage and reports it).
  func admitted(_ candidates: Set<Int>?, of segment: SegmentReader) -> Set<Int>? {
    guard filtersByID, candidates?.isEmpty != true else { return candidates }
    if let keys = admissionKeys {
      let named: [(number: Int, id: String)]
      do {
        named = try segment.records(withIDKeys: keys)
      } catch {
        return candidates
      }
      return Set(
        named.lazy.filter { candidates?.contains($0.number) ?? true }.filter { admits(id: $0.id) }
          .map(\.number))
    }
    let ids: [String]
    do {
      ids = try segment.ids()
    } catch {
      return candidates
    }
    guard ids.count == segment.info.count else { return candidates }
    // Every record asked about, and every match unread: a segment read through is noted so.
    if candidates == nil, let marks = unreadOnly,
      marks.noteIfAllRead(ids, segment: segment.info.number)
    {
      return []
    }
    return (candidates ?? Set(ids.indices)).filter { admits(id: ids[$0]) }
  }
}

extension ArticleSearch.Matcher: RecordFilter {
  var providers: Set<String>? { nil }

  mutating func accepts(_ article: Article, seenAt: Date?) -> Bool {
    matches([article.title, article.description, article.content])
  }
}
