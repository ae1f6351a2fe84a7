import Foundation
import TestSupport
import Testing

@testable import NewsCore

/// Each segment's summary in the manifest (its sources, its dates) lets `source:hn age>2d`
/// pass over the segments that cannot hold a match without opening them (#58.4).
@Suite("segment summaries: sources and dates a query passes segments over by")
struct SegmentSummaryTests {
  let directory = TemporaryDirectory()
  let clock = TestDate()
  static let day = 86_400.0

  func store() -> ArticleStore {
    let clock = self.clock
    return ArticleStore.testing(in: directory.url, now: { clock.now })
  }

  @Test("a summary: dates (seen when undated), providers lower-cased, publishers folded")
  func summary() throws {
    let records = [
      StoredArticle(
        article: Article(
          id: "a", provider: "HN", title: "A", publisher: "Ÿcombinator News",
          publishedAt: Date(timeIntervalSince1970: 500)),
        seenAt: Date(timeIntervalSince1970: 900)),
      StoredArticle(
        article: Article(id: "b", provider: "hn", title: "B"),
        seenAt: Date(timeIntervalSince1970: 100)),
    ]
    let summary = try #require(SegmentSummary(of: records))
    #expect(summary.earliest == 100 && summary.latest == 500 && summary.latestUndated == 100)
    #expect(summary.providers == ["hn"])
    #expect(summary.publishers == ["ycombinator news"], "folded: no diacritics")
    #expect(SegmentSummary(of: []) == nil)
    // Past the most names it lists: none listed, never passed over by source.
    let many = (0...SegmentSummary.maximumNames).map { index in
      StoredArticle(
        article: Article(id: "m\(index)", provider: "p", title: "M", publisher: "Pub \(index)"),
        seenAt: Date(timeIntervalSince1970: 1))
    }
    let crowded = try #require(SegmentSummary(of: many))
    #expect(crowded.publishers == nil && crowded.providers == ["p"])
    #expect(crowded.mayHold(source: "anything"))
  }

  @Test(
    "source: as the matcher decides it: the provider by name, or a publisher holding it",
    arguments: [
      ("hn", true), ("newsapi", true), ("bbc", true), ("bbc news", true), ("news", true),
      ("ycombinator", true), ("cnn", false), ("new", true), ("hn2", false),
    ])
  func mayHoldSource(name: String, holds: Bool) {
    let summary = SegmentSummary(
      earliest: 0, latest: 1, providers: ["hn", "newsapi"],
      publishers: ["bbc news", "ycombinator"])
    #expect(summary.mayHold(source: name) == holds)
  }

  @Test(
    "what every match must be: its sources, its dates",
    arguments: [
      ("source:hn", [["hn"]], nil, nil),
      ("source:hn age>2d", [["hn"]], nil, -2.0),
      ("(source:hn OR source:bbc) climate", [["hn", "bbc"]], nil, nil),
      ("source:hn source:bbc", [["hn"], ["bbc"]], nil, nil),
      ("source:hn OR climate", [], nil, nil),
      ("NOT source:hn", [], nil, nil),
      ("age<7d", [], -7.0, nil),
      ("age<7d age>2d", [], -7.0, -2.0),
      ("age>2d OR climate", [], nil, nil),
      ("-age<2d", [], nil, nil),
    ] as [(String, [Set<String>], Double?, Double?)])
  func required(text: String, sources: [Set<String>], from: Double?, until: Double?) throws {
    let query = try ArticleQuery(text, timeZone: .gmt)
    let now = clock.now
    #expect(query.requiredSources == sources)
    let range = query.dateRange(now: now)
    #expect(range?.from == from.map { now + $0 * Self.day })
    #expect(range?.until == until.map { now + $0 * Self.day })
  }

  @Test("a date: range bounds both ends")
  func dateTerm() throws {
    let query = try ArticleQuery("date:2026-11-01..2026-11-20 climate", timeZone: .gmt)
    let range = try #require(query.dateRange(now: clock.now))
    let first = Date(timeIntervalSince1970: 1_793_491_200)  // 2026-11-01T00:00Z
    #expect(range.from == first)
    #expect(range.until.map { $0 > first.addingTimeInterval(18 * Self.day) } == true)
    let inside = SegmentSummary(
      earliest: first.timeIntervalSince1970 - Self.day, latest: first.timeIntervalSince1970,
      providers: [], publishers: [])
    let before = SegmentSummary(
      earliest: 0, latest: first.timeIntervalSince1970 - 1, providers: [], publishers: [])
    let after = SegmentSummary(
      earliest: range.until!.timeIntervalSince1970, latest: .greatestFiniteMagnitude,
      providers: [], publishers: [])
    #expect(inside.mayHold(datedIn: range))
    #expect(!before.mayHold(datedIn: range))
    #expect(!after.mayHold(datedIn: range))
  }

  /// A store of `newsapi` headlines (one publisher) kept a day at a time over ten days, and a
  /// `hn` feed's items, some undated.
  func filled() throws -> ArticleStore {
    let store = store()
    for day in 0..<10 {
      let articles = (0..<30).map { index in
        Article(
          id: "n\(day)-\(index)", provider: "newsapi",
          title: index % 3 == 0 ? "Climate \(day) \(index)" : "Markets \(day) \(index)",
          publisher: "Example News",
          publishedAt: clock.now.addingTimeInterval(-Double(index) * 60))
      }
      try store.keep(articles, provider: "newsapi")
      let items = (0..<4).map { index in
        Article(
          id: "h\(day)-\(index)", provider: "hn", title: "Show HN \(day) \(index)",
          publisher: "Hacker News",
          publishedAt: index == 0 ? nil : clock.now.addingTimeInterval(-Double(index) * 3_600))
      }
      try store.keep(items, provider: "hn")
      clock.advance(by: Self.day)
    }
    return store
  }

  @Test(
    "a query passes segments over by their summaries, and finds what reading all finds",
    arguments: [
      ("source:hn age>2d", "newsapi"), ("source:hn", "newsapi"), ("source:example", "hn"),
      ("age<3d", nil), ("age>8d climate", nil), ("source:hn OR climate", nil),
      ("NOT source:hn", nil), ("(source:hn OR source:bbc) show", "newsapi"),
      ("date:2023-11-16..2023-11-18", nil), ("age<1h", nil),
    ] as [(String, String?)])
  func passesOver(text: String, passedProvider: String?) throws {
    let store = try filled()
    let manifest = try store.segments.manifest()
    #expect(manifest.providers.values.joined().allSatisfy { $0.summary != nil })
    let query = try ArticleQuery(text, timeZone: .gmt)
    let facts = try store.facts(for: query, now: clock.now, tags: { [:] })
    let filter = QueryRecordFilter(QueryMatcher(query, facts: facts))
    for (provider, infos) in manifest.providers where provider == passedProvider {
      #expect(infos.allSatisfy(filter.skips), "\(provider)'s segments passed over")
    }
    var every = QueryMatcher(query, facts: facts)
    var expected = Set<String>()
    for (_, records) in try store.segments.records(cutoff: .distantPast) {
      for record in records where every.matches(record.article, seenAt: record.seenAt) {
        expected.insert(record.article.id)
      }
    }
    let found = Set(try store.search(QueryMatcher(query, facts: facts)).articles.map(\.id))
    #expect(found == expected)
    let limited = try store.search(QueryMatcher(query, facts: facts), limit: 5).articles
    #expect(Set(limited.map(\.id)).isSubset(of: expected))
    #expect(limited.count >= min(5, expected.count), "at least the newest five")
  }

  @Test("a store of before summaries gains them over its next commits, a bounded read each")
  func earlierStore() throws {
    let store = try filled()
    var manifest = try store.segments.manifest()
    for provider in manifest.providers.keys {
      for index in manifest.providers[provider]!.indices {
        manifest.providers[provider]![index].summary = nil
      }
    }
    let stripped = manifest
    let segments = manifest.providers.values.joined().count
    // A budget of one record: one segment summarized (the one crossing it), the others not.
    store.segments.summarizeEarlier(&manifest, budget: 1)
    #expect(manifest.providers.values.joined().filter { $0.summary != nil }.count == 1)
    // Written as an earlier version left it: a query opens every segment, as before.
    try store.store.transaction { try store.segments.commit(stripped, in: $0) }
    let query = try ArticleQuery("source:hn", timeZone: .gmt)
    let filter = QueryRecordFilter(
      QueryMatcher(query, facts: try store.facts(for: query, now: clock.now, tags: { [:] })))
    let before = try store.segments.manifest().providers.values.joined()
    #expect(!before.contains(where: filter.skips))
    // The next save's commit summarizes them (all of them: fewer records than its budget).
    try store.keep([Article(id: "x", provider: "hn", title: "New")], provider: "hn")
    let after = try store.segments.manifest()
    #expect(after.providers.values.joined().allSatisfy { $0.summary != nil })
    #expect(after.providers.values.joined().count >= segments)
    #expect(after.providers["newsapi"]!.allSatisfy(filter.skips))
  }

  @Test(
    "a date range reads the chunks of a large segment that may hold its dates",
    arguments: [
      ("age<2h", true), ("age<2h climate", true), ("age<5h -is:read", true), ("age>2h", false),
      ("age<11d", false), ("date:2023-11-24..2023-11-25", false),
      // Before every date: the segment is passed over whole, no chunk asked about.
      ("date:2023-11-01..2023-11-02", false),
    ])
  func chunks(text: String, passesSome: Bool) throws {
    let store = store()
    // Ten undated articles seen ten days ago, then 1,000 a minute apart over the hours before
    // now: one segment once merged, of four chunks.
    let seen = clock.now.timeIntervalSince1970
    try store.keep(
      (0..<10).map { Article(id: "u\($0)", provider: "feed", title: "Climate undated \($0)") },
      provider: "feed")
    clock.advance(by: 10 * Self.day)
    let articles = (0..<1_000).map { (index: Int) -> Article in
      let title = index % 2 == 0 ? "Climate \(index)" : "Sea \(index)"
      let published = clock.now.addingTimeInterval(-Double(index) * 60)
      return Article(id: "c\(index)", provider: "feed", title: title, publishedAt: published)
    }
    try store.keep(articles, provider: "feed")
    let infos = try #require(try store.segments.manifest().providers["feed"])
    let info = try #require(infos.count == 1 ? infos.first : nil, "merged: \(infos.count)")
    #expect(info.chunks == 4 && info.summary?.latestUndated == seen)
    let query = try ArticleQuery(text, timeZone: .gmt)
    let facts = try store.facts(for: query, now: clock.now, tags: { [:] })
    let filter = QueryRecordFilter(QueryMatcher(query, facts: facts))
    let segment = try SegmentReader(info, in: store.store)
    let read = filter.dated(nil, of: segment)
    #expect((read != nil) == passesSome)
    var every = QueryMatcher(query, facts: facts)
    let expected = Set(
      try store.segments.records(cutoff: .distantPast).flatMap(\.records).filter {
        every.matches($0.article, seenAt: $0.seenAt)
      }.map(\.article.id))
    let found = Set(try store.search(QueryMatcher(query, facts: facts)).articles.map(\.id))
    #expect(found == expected)
    let limited = try store.search(QueryMatcher(query, facts: facts), limit: 5).articles
    #expect(Set(limited.map(\.id)).isSubset(of: expected))
    #expect(limited.count >= min(5, expected.count))
  }

  @Test("undated records hold a chunk back by when they were seen")
  func undatedChunk() {
    let range = DateRange(from: Date(timeIntervalSince1970: 1_000), until: nil)
    let dated = SegmentSummary(earliest: 0, latest: 2_000, providers: [], publishers: [])
    #expect(!dated.mayHold(chunkNewest: 999, datedIn: range))
    #expect(dated.mayHold(chunkNewest: 1_000, datedIn: range))
    #expect(!dated.mayHold(chunkNewest: SegmentInfo.undated, datedIn: range))
    var seenLate = dated
    seenLate.latestUndated = 1_500
    #expect(seenLate.mayHold(chunkNewest: SegmentInfo.undated, datedIn: range))
    #expect(seenLate.mayHold(chunkNewest: 10, datedIn: DateRange(from: nil, until: nil)))
  }

  @Test("dated segments are passed over by age: the old ones for age<, the new ones for age>")
  func passedByAge() throws {
    let store = try filled()
    let infos = try #require(try store.segments.manifest().providers["newsapi"])
    func skipped(_ text: String) throws -> Int {
      let query = try ArticleQuery(text, timeZone: .gmt)
      let filter = QueryRecordFilter(
        QueryMatcher(query, facts: try store.facts(for: query, now: clock.now, tags: { [:] })))
      return infos.filter(filter.skips).count
    }
    #expect(infos.count > 1, "several segments (merged as they grow)")
    #expect(try skipped("age<1d") > 0)
    #expect(try skipped("age>11d") == infos.count)
    #expect(try skipped("age<11d") == 0)
  }
}
