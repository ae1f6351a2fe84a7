import Foundation
import TestSupport
import Testing

@testable import NewsCore

/// `is:unread` passes over the segments every article of which was read (#58.4): found read
/// through by one query, kept in `fully-read`, and forgotten when a mark is removed.
@Suite("segments read through, passed over by is:unread")
struct FullyReadSegmentsTests {
  let directory = TemporaryDirectory()
  let clock = TestDate()

  func store() -> ArticleStore {
    let clock = self.clock
    return ArticleStore.testing(in: directory.url, now: { clock.now })
  }

  /// Two providers of 50 articles each, in a segment each.
  func filled(_ store: ArticleStore) throws -> [Article] {
    let articles = (0..<100).map { index in
      Article(
        id: "a\(index)", provider: index < 50 ? "one" : "two", title: "News \(index)",
        publishedAt: Date(timeIntervalSince1970: Double(index) * 60))
    }
    try store.keep(Array(articles.prefix(50)), provider: "one")
    try store.keep(Array(articles.dropFirst(50)), provider: "two")
    return articles
  }

  /// `text`'s matches, with the read marks' files the search read.
  func search(_ store: ArticleStore, _ text: String, limit: Int? = nil) throws -> (
    ids: Set<String>, shardsRead: Int
  ) {
    let query = try ArticleQuery(text, timeZone: .gmt)
    let facts = try store.facts(for: query, now: clock.now, tags: { [:] })
    let shards = try #require(facts.readMarkShards, "read a file at a time")
    let found = try store.search(QueryMatcher(query, facts: facts), limit: limit)
    try shards.check()
    return (Set(found.articles.map(\.id)), shards.shardsRead)
  }

  func numbers(_ store: ArticleStore, _ provider: String) throws -> Set<Int> {
    Set(try store.segments.manifest().providers[provider, default: []].map(\.number))
  }

  @Test(
    "every article read: the second is:unread reads no mark and no segment",
    arguments: ["is:unread", "-is:read", "is:unread age<30000d"], [nil, 20])
  func allRead(text: String, limit: Int?) throws {
    let store = store()
    let articles = try filled(store)
    try store.markRead(articles.map(\.id))
    let first = try search(store, text, limit: limit)
    #expect(first.ids.isEmpty && first.shardsRead > 0)
    let kept = try #require(store.fullyReadSegments())
    let all = try numbers(store, "one").union(try numbers(store, "two"))
    #expect(Set(kept.oldestMark.keys) == all)
    let second = try search(store, text, limit: limit)
    #expect(second.ids.isEmpty)
    #expect(second.shardsRead == 0, "no mark read: both segments passed over")
  }

  @Test("a segment with an unread article is read as before; the other is passed over")
  func partly() throws {
    let store = store()
    let articles = try filled(store)
    try store.markRead(articles.map(\.id).filter { $0 != "a70" })
    #expect(try search(store, "is:unread").ids == ["a70"])
    let one = try numbers(store, "one")
    #expect(Set(try #require(store.fullyReadSegments()).oldestMark.keys) == one)
    #expect(try search(store, "is:unread").ids == ["a70"])
    // Marking the last one read adds the other segment.
    try store.markRead(["a70"])
    #expect(try search(store, "is:unread").ids.isEmpty)
    #expect(try search(store, "is:unread").shardsRead == 0)
  }

  @Test("an article marked unread, with or without counting, is found again at once")
  func unmarked() throws {
    for counting in [true, false] {
      let store = store()
      let articles = try filled(store)
      try store.markRead(articles.map(\.id))
      #expect(try search(store, "is:unread").ids.isEmpty)
      let before = try #require(store.fullyReadSegments())
      try store.markUnread(["a10"], counting: counting)
      let after = try #require(store.fullyReadSegments(), "written again, empty")
      #expect(after.oldestMark.isEmpty && after.epoch != before.epoch)
      #expect(try search(store, "is:unread").ids == ["a10"])
      try store.markRead(["a10"])
      try FileManager.default.removeItem(at: directory.url)
    }
  }

  /// Every article of `store` filled and read, and marks read as a query reads them that
  /// found the first provider's segment read through (not kept yet); with that segment's number
  /// and ids.
  func notedFirst(_ store: ArticleStore) throws -> (ReadMarkShards, Int, [String]) {
    let articles = try filled(store)
    try store.markRead(articles.map(\.id))
    let shards = store.readMarkShards()
    let one = try #require(try numbers(store, "one").first)
    let ids = articles.prefix(50).map(\.id)
    #expect(shards.noteIfAllRead(ids, segment: one))
    return (shards, one, ids)
  }

  @Test("a mark removed while a query read the marks: what it found is not kept")
  func removedBetween() throws {
    let store = store()
    let (shards, one, ids) = try notedFirst(store)
    try store.markUnread(["a3"])
    store.keepFullyRead(shards)
    #expect(try #require(store.fullyReadSegments()).oldestMark.isEmpty)
    // The same, with no mark removed: kept.
    let again = store.readMarkShards()
    try store.markRead(["a3"])
    #expect(again.noteIfAllRead(ids, segment: one))
    store.keepFullyRead(again)
    #expect(try #require(store.fullyReadSegments()).oldestMark.keys.contains(one))
  }

  @Test("new articles after the segments were read through are found; retired segments dropped")
  func newSegments() throws {
    let store = store()
    let articles = try filled(store)
    try store.markRead(articles.map(\.id))
    #expect(try search(store, "is:unread").ids.isEmpty)
    let fresh = Article(id: "new", provider: "one", title: "Fresh", publishedAt: clock.now)
    try store.keep(articles.prefix(50) + [fresh], provider: "one")
    #expect(try search(store, "is:unread").ids == ["new"])
    try store.markRead(["new"])
    #expect(try search(store, "is:unread").ids.isEmpty)
    let kept = Set(try #require(store.fullyReadSegments()).oldestMark.keys)
    let all = try numbers(store, "one").union(try numbers(store, "two"))
    #expect(kept == all)
  }

  @Test("the store locked by a writer: nothing kept, nothing waited for")
  func locked() throws {
    let store = store()
    let (shards, _, _) = try notedFirst(store)
    try store.store.withLock { store.keepFullyRead(shards) }
    #expect(store.fullyReadSegments() == nil)
  }

  @Test(
    "a segment stays read through until its oldest mark expires",
    arguments: [(0.0, true), (89 * 86_400.0, true), (90 * 86_400.0, false)])
  func expiry(age: Double, covered: Bool) {
    let segments = FullyReadSegments(epoch: 7, oldestMark: [3: 1_000])
    let lifetime = ReadMarks.lifetime(for: RetentionPolicy())
    #expect(segments.covers(3, now: 1_000 + age, lifetime: lifetime) == covered)
    #expect(!segments.covers(4, now: 1_000, lifetime: lifetime))
  }

  @Test("the file: read as written; anything else refused, and read as none")
  func file() throws {
    let segments = FullyReadSegments(epoch: 1 << 40, oldestMark: [0: 0, 9: 5, 4_000: .max])
    #expect(try FullyReadSegments(decoding: segments.encoded) == segments)
    for bytes in [
      Array("NRL1".utf8), Array(segments.encoded.dropLast()), segments.encoded + [0],
      Array("NFR1".utf8) + [1, 0x7F],
    ] {
      #expect(throws: BinaryReader.Malformed.self) { try FullyReadSegments(decoding: bytes) }
    }
    let store = store()
    try store.store.write(bytes: Array("NFR1".utf8) + [1], name: FullyReadSegments.fileName)
    #expect(store.fullyReadSegments() == nil)
  }
}
