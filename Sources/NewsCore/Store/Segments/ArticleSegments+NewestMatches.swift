import Foundation

extension ArticleSegments {
  /// The newest `limit` stored articles holding every word of `matcher` (newest first, as
  /// ``ArticleSearch/newestFirst(_:)`` orders them), reading segments by the newest publication
  /// date they hold and stopping once no segment left can hold a match newer than the
  /// `limit`-th found: `--limit 20` of a broad search reads a few segments, not all of them.
  ///
  /// - Returns: the matches read (at least the newest `limit`, when there are that many), and
  ///   whether every segment was read (then they are every match).
  func newestMatches(_ matcher: inout some RecordFilter, limit: Int, cutoff: Date) throws
    -> (found: [String: Article], complete: Bool)
  {
    let runs = matcher.indexRuns
    let oldest = cutoff.timeIntervalSince1970
    return try reading { manifest in
      // Every segment, those that may hold the newest articles first (unknown: first of all).
      let wanted = matcher.providers
      let order = manifest.providers.filter { wanted?.contains($0.key) ?? true }.flatMap {
        provider, infos in
        infos.indices.map { (provider: provider, index: $0) }
      }.sorted { lhs, rhs in
        let l = manifest.providers[lhs.provider]![lhs.index].newestPublished ?? .infinity
        let r = manifest.providers[rhs.provider]![rhs.index].newestPublished ?? .infinity
        return l != r ? l > r : (lhs.provider, lhs.index) < (rhs.provider, rhs.index)
      }
      var found: [String: Article] = [:]
      // An id two providers hold (one link in two sources) is answered as the full search
      // answers it, by the provider last in name order, among the segments read.
      var foundIn: [String: String] = [:]
      // Each provider's segment ids, read once, for the records newer segments supersede.
      var ids: [String: [Int: Set<String>]] = [:]
      var complete = true
      // The newest `limit` dates among `found`, kept as matches come (counted again from
      // `found` only after a rare replacement of one provider's copy by another's).
      var newest = NewestDates(rank: limit)
      var replaced = false
      var filters = PackFilters(store: store)
      /// Whether nothing published before `bound` can be among the newest `limit` found.
      func enough(before bound: Double?) -> Bool {
        guard let bound else { return false }
        if replaced {
          newest = NewestDates(rank: limit)
          for article in found.values { newest.insert(article.publishedAt) }
          replaced = false
        }
        guard let last = newest.last else { return false }
        return bound < last
      }
      for next in order {
        let infos = manifest.providers[next.provider]!
        // No segment left holds an article newer than the `limit`-th match.
        if enough(before: infos[next.index].newestPublished) { return (found, false) }
        let info = infos[next.index]
        // Every match unread, and every article of it read.
        if matcher.skips(info) { continue }
        // No index word of it can hold the query's words.
        if !filters.mayHold(any: runs, info) { continue }
        let opened: (SegmentReader, Set<Int>?)? = try aroundDamage(info, of: next.provider) {
          () throws -> (SegmentReader, Set<Int>?) in
          let segment = try SegmentReader(info, in: store)
          return (segment, try segment.records(holdingAny: runs))
        }
        guard let (segment, narrowed) = opened else { continue }
        // A state every match is in (`is:unread`) turns records away by id, unread.
        // … and a date range passes over the chunks before it.
        let candidates = matcher.dated(matcher.admitted(narrowed, of: segment), of: segment)
        if candidates?.isEmpty == true { continue }
        var newer = Set<String>()
        for index in (next.index + 1)..<infos.count {
          if ids[next.provider]?[index] == nil {
            ids[next.provider, default: [:]][index] = Set(
              try aroundDamage(infos[index], of: next.provider) {
                try SegmentReader(infos[index], in: store).ids()
              } ?? [])
          }
          newer.formUnion(ids[next.provider]![index]!)
        }
        for (batch, batchNewest) in Self.batches(candidates, of: segment) {
          // The chunks left of this segment are older than the `limit`-th match.
          if enough(before: batchNewest) {
            complete = false
            break
          }
          let read: [(number: Int, record: StoredArticle)] =
            try aroundDamage(info, of: next.provider) { try segment.records(batch) } ?? []
          for (_, record) in read
          where record.seenAt.timeIntervalSince1970 >= oldest
            && !newer.contains(record.article.id)
            && matcher.accepts(record.article, seenAt: record.seenAt)
          {
            let id = record.article.id
            if let other = foundIn[id], other > next.provider { continue }
            if found.updateValue(record.article, forKey: id) == nil {
              newest.insert(record.article.publishedAt)
            } else {
              replaced = true
            }
            foundIn[id] = next.provider
          }
        }
      }
      return (found, complete)
    }
  }

  /// The candidates of `segment` in the order to read them: chunk by chunk, newest chunk first,
  /// each with its newest publication date, when the segment says its chunks' dates; else all
  /// at once, dated by the segment (`nil` candidates: every record).
  static func batches(_ candidates: Set<Int>?, of segment: SegmentReader) -> [(
    records: Set<Int>?, newest: Double?
  )] {
    guard let dates = segment.chunkNewest else {
      return [(candidates, segment.info.newestPublished)]
    }
    let size = SegmentBuilder.chunkSize
    let all = candidates ?? Set(0..<segment.info.count)
    let byChunk = Dictionary(grouping: all) { $0 / size }
    return byChunk.keys.filter { $0 < dates.count }.sorted {
      dates[$0] != dates[$1] ? dates[$0] > dates[$1] : $0 < $1
    }.map { (Set(byChunk[$0]!), dates[$0]) }
  }
}

/// The newest `rank` publication dates seen, in one small sorted array: what the `rank`-th
/// newest match is, as ``ArticleSearch/newestFirst(_:)`` orders matches (undated last), without
/// sorting every match each time it is asked.
struct NewestDates {
  let rank: Int
  /// Ascending: the first is the `rank`-th newest so far.
  private var top: [Double] = []

  init(rank: Int) {
    self.rank = rank
    top.reserveCapacity(rank + 1)
  }

  /// The `rank`-th newest date, once `rank` dated ones were seen; `nil` before (the `rank`-th
  /// newest is then undated, or there are fewer).
  var last: Double? { top.count == rank ? top.first : nil }

  mutating func insert(_ date: Date?) {
    guard let date = date?.timeIntervalSince1970, top.count < rank || date > top[0] else { return }
    if top.count == rank { top.removeFirst() }
    var low = 0
    var high = top.count
    while low < high {
      let middle = (low + high) / 2
      if top[middle] < date { low = middle + 1 } else { high = middle }
    }
    top.insert(date, at: low)
  }
}
