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

    let everything = try ArticleQuery("is:unread", timeZone: .gmt)
    let all = try store.facts(for: everything, now: clock.now, tags: { [:] })
    #expect(all.readMarkShards == nil, "not narrowed: every mark at once")
    #expect(try store.search(QueryMatcher(everything, facts: all)).articles.map(\.id) == ["a1"])
  }

  @Test("a file that cannot be read is an error for the narrowed search, never a wrong answer")
  func failure() throws {
    struct Unreadable: Error {}
    let shards = ReadMarkShards { _ in throw Unreadable() }
    #expect(shards.contains("x") == false)
    #expect(throws: Unreadable.self) { try shards.check() }
  }
}
