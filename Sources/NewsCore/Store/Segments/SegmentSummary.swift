import Foundation

/// What a segment's records are, said in the manifest so that a query passes a segment over
/// without opening it: where they come from (`source:`) and when they are dated (`date:`,
/// `age>`). Segments written before it have none, and are always opened.
struct SegmentSummary: Codable, Sendable, Equatable {
  /// The earliest and the latest date of its records, in seconds since 1970: each record's
  /// publication date, or when it was seen when it has none (the date `date:` and `age` read).
  var earliest: Double
  var latest: Double
  /// When its latest-seen undated record was seen; `nil` when every record is dated. With each
  /// chunk's newest publication date (``SegmentReader/chunkNewest``), it bounds a chunk's
  /// dates, so that `date:` passes over the chunks of a large segment before its range.
  var latestUndated: Double? = nil
  /// Its records' providers, lower-cased, each once, sorted; `nil` past ``maximumNames``.
  var providers: [String]?
  /// The publishers its records name, folded as a search folds them, each once, sorted; `nil`
  /// past ``maximumNames`` (a segment of many publishers is never passed over by `source:`).
  var publishers: [String]?

  /// The most names of each kind a summary lists: the manifest is read by every command.
  static let maximumNames = 64

  /// Whether a record may match `source:name` (`name` lower-cased, as the query holds it): its
  /// provider is `name`, or a publisher it names holds it, as ``QueryMatcher`` decides.
  func mayHold(source name: String) -> Bool {
    guard let providers, let publishers else { return true }
    if providers.contains(name) { return true }
    let needle = Array(name.utf8)
    return publishers.contains { ArticleSearch.contains(Array($0.utf8), needle) }
  }

  /// Whether a record of a chunk whose newest publication date is `newest` (``SegmentInfo/undated``
  /// when it has none) may be dated in `range`: its undated records are dated when they were
  /// seen, no later than ``latestUndated``.
  func mayHold(chunkNewest newest: Double, datedIn range: DateRange) -> Bool {
    guard let from = range.from?.timeIntervalSince1970 else { return true }
    return newest >= from || (latestUndated ?? -.infinity) >= from
  }

  /// Whether a record may be dated in `range` (from inclusive, until exclusive, either open).
  func mayHold(datedIn range: DateRange) -> Bool {
    if let from = range.from, latest < from.timeIntervalSince1970 { return false }
    if let until = range.until, earliest >= until.timeIntervalSince1970 { return false }
    return true
  }
}

// Beside the type, so that its memberwise initializer stays.
extension SegmentSummary {
  /// The summary of `records`; `nil` when there are none.
  init?(of records: [StoredArticle]) {
    guard !records.isEmpty else { return nil }
    var earliest = Double.infinity
    var latest = -Double.infinity
    var latestUndated: Double? = nil
    var providers = Set<String>()
    var publishers = Set<String>()
    var cache: [Unicode.Scalar: [UInt8]] = [:]
    for record in records {
      let date = (record.article.publishedAt ?? record.seenAt).timeIntervalSince1970
      earliest = min(earliest, date)
      latest = max(latest, date)
      if record.article.publishedAt == nil { latestUndated = max(latestUndated ?? date, date) }
      if providers.count <= Self.maximumNames {
        providers.insert(record.article.provider.lowercased())
      }
      if publishers.count <= Self.maximumNames, let publisher = record.article.publisher {
        publishers.insert(
          String(decoding: ArticleSearch.fold(publisher, cache: &cache), as: UTF8.self))
      }
    }
    self.earliest = earliest
    self.latest = latest
    self.latestUndated = latestUndated
    self.providers = providers.count <= Self.maximumNames ? providers.sorted() : nil
    self.publishers = publishers.count <= Self.maximumNames ? publishers.sorted() : nil
  }
}
