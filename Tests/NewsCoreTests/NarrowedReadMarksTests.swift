import Foundation
import TestSupport
import Testing

@testable import NewsCore

/// A query the word index narrows (`climate is:unread`) reads only the read marks of the
/// articles it leaves, a file at a time; one it cannot narrow reads them all at once.
@Suite("read marks read as a narrowed query asks them")
struct NarrowedReadMarksTests {
  let directory = TemporaryDirectory()
  let clock = TestDate()

  func store() -> ArticleStore {
    let clock = self.clock
    return ArticleStore.testing(in: directory.url, now: { clock.now })
  }

  @Test("climate is:unread: the matches' marks only, and the same answer as every mark")
  func narrowed() throws {
    let store = store()
    let articles = (0..<400).map { index in
      Article(
        id: "a\(index)", provider: "feed",
        title: index < 3 ? "Climate talk \(index)" : "Other news \(index)",
        publishedAt: Date(timeIntervalSince1970: Double(index) * 60))
    }
    try store.keep(articles, provider: "feed")
    try store.markRead(articles.map(\.id).filter { $0 != "a1" })
    let query = try ArticleQuery("climate is:unread", timeZone: .gmt)
    let facts = try store.facts(for: query, now: clock.now, tags: { [:] })
    let shards = try #require(facts.readMarkShards, "narrowed: read as asked")
    let found = try store.search(QueryMatcher(query, facts: facts))
    #expect(found.articles.map(\.id) == ["a1"])
    #expect(shards.shardsRead <= 3, "the three matches' files, of 256")
    try shards.check()

    let everything = try ArticleQuery("is:read", timeZone: .gmt)
    let all = try store.facts(for: everything, now: clock.now, tags: { [:] })
    #expect(all.readMarkShards == nil, "not narrowed: every mark at once")
    #expect(try store.search(QueryMatcher(everything, facts: all)).articles.count == 399)
  }

  @Test("(climate OR storm) is:unread: the marks of either word's articles only")
  func eitherWord() throws {
    let store = store()
    let articles = (0..<400).map { index in
      Article(
        id: "a\(index)", provider: "feed",
        title: index < 3
          ? "Climate talk \(index)" : index < 5 ? "Storm \(index)" : "Other \(index)",
        publishedAt: Date(timeIntervalSince1970: Double(index) * 60))
    }
    try store.keep(articles, provider: "feed")
    try store.markRead(articles.map(\.id).filter { $0 != "a1" && $0 != "a4" })
    let query = try ArticleQuery("(climate OR storm) is:unread", timeZone: .gmt)
    let facts = try store.facts(for: query, now: clock.now, tags: { [:] })
    let shards = try #require(facts.readMarkShards, "narrowed: read as asked")
    let found = try store.search(QueryMatcher(query, facts: facts))
    #expect(Set(found.articles.map(\.id)) == ["a1", "a4"])
    #expect(shards.shardsRead <= 5, "the five articles' files, of 256")
  }

  @Test("is:bookmarked in a segment of chunks: its ids matched as bytes, the same answer")
  func bookmarkedAmongMany() throws {
    let store = store()
    let articles = (0..<700).map { index in
      Article(
        id: "b\(index)", provider: "feed", title: index % 2 == 0 ? "Climate \(index)" : "Sea",
        publishedAt: Date(timeIntervalSince1970: Double(index) * 60))
    }
    try store.keep(articles, provider: "feed")
    let info = try #require(try store.segments.manifest().providers["feed"]?.first)
    #expect(info.chunks > 0, "split: its ids in a file of their own")
    _ = try store.addBookmarks([articles[4], articles[5], articles[650]])
    let segment = try SegmentReader(info, in: store.store)
    let ids = try segment.ids()
    let keys = Set(["b4", "b650", "none"].map(ReadMarks.key))
    let named = try segment.records(withIDKeys: keys)
    #expect(named.map(\.id).sorted() == ["b4", "b650"])
    #expect(named.allSatisfy { ids[$0.number] == $0.id })
    // Nothing with an enclosure: no segment is even opened.
    let none = QueryRecordFilter(
      QueryMatcher(
        try ArticleQuery("has:enclosure", timeZone: .gmt),
        facts: QueryFacts(now: clock.now)))
    #expect(none.admissionKeys == [] && none.skips(info))
    let some = QueryRecordFilter(
      QueryMatcher(
        try ArticleQuery("is:bookmarked", timeZone: .gmt),
        facts: try store.facts(needs: .bookmarks, now: clock.now, tags: { [:] })))
    #expect(some.admissionKeys?.count == 3 && !some.skips(info))
    for (text, expected) in [
      ("is:bookmarked", ["b4", "b5", "b650"]), ("is:bookmarked climate", ["b4", "b650"]),
      ("is:bookmarked sea", ["b5"]),
    ] {
      let query = try ArticleQuery(text, timeZone: .gmt)
      let facts = try store.facts(for: query, now: clock.now, tags: { [:] })
      let found = try store.search(QueryMatcher(query, facts: facts), limit: 20)
      #expect(found.articles.map(\.id).sorted() == expected, "\(text)")
    }
  }

  @Test("a file that cannot be read is an error for the narrowed search, never a wrong answer")
  func failure() throws {
    struct Unreadable: Error {}
    let shards = ReadMarkShards { _ in throw Unreadable() }
    #expect(shards.contains("x") == false)
    #expect(throws: Unreadable.self) { try shards.check() }
  }

  @Test(
    "records turned away by id before they are read: the same matches as reading every one",
    arguments: [
      "is:unread", "-is:read", "is:read", "climate is:unread", "is:bookmarked",
      "-is:bookmarked climate", "is:unread OR climate", "NOT is:read", "is:unread is:bookmarked",
      "(climate OR 7) is:unread", "climate OR 7", "(title:climate OR text:7) -is:read",
      "is:bookmarked climate", "is:bookmarked is:read", "is:bookmarked -is:bookmarked",
    ])
  func admittedByID(text: String) throws {
    let store = store()
    let articles = (0..<120).map { (index: Int) -> Article in
      let title = index % 5 == 0 ? "Climate \(index)" : "News \(index)"
      return Article(
        id: "a\(index)", provider: index < 60 ? "feed" : "other", title: title,
        publishedAt: Date(timeIntervalSince1970: Double(index) * 60))
    }
    try store.keep(Array(articles.prefix(60)), provider: "feed")
    try store.keep(Array(articles.dropFirst(60)), provider: "other")
    func number(_ id: String) -> Int { Int(id.dropFirst()) ?? 0 }
    let read: [String] = articles.map(\.id).filter { number($0) % 3 != 0 }
    try store.markRead(read)
    let marked: [Article] = articles.filter { number($0.id) % 4 == 0 }
    _ = try store.addBookmarks(marked)
    let query = try ArticleQuery(text, timeZone: .gmt)
    let facts = try store.facts(for: query, now: clock.now, tags: { [:] })
    let found = Set(try store.search(QueryMatcher(query, facts: facts)).articles.map(\.id))
    let limited = Set(
      try store.search(QueryMatcher(query, facts: facts), limit: 5).articles.map(\.id))
    var every = QueryMatcher(
      query, facts: try store.facts(needs: query.needs, now: clock.now, tags: { [:] }))
    var expected = Set<String>()
    for article in try store.allArticles() where every.matches(article, seenAt: nil) {
      expected.insert(article.id)
    }
    #expect(found == expected)
    #expect(limited.isSubset(of: expected))
    #expect(limited.count == min(5, expected.count) || limited.count >= 5)
    // Again, with the segments the first searches found read through kept.
    let again = try store.facts(for: query, now: clock.now, tags: { [:] })
    #expect(Set(try store.search(QueryMatcher(query, facts: again)).articles.map(\.id)) == found)
  }
}
