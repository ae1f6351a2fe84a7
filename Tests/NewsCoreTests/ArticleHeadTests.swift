import Foundation
import TestSupport
import Testing

@testable import NewsCore

/// The heads of every stored article (`news serve`'s library): the same articles as a full
/// read, without their text; the text read back for the heads asked.
@Suite("Article heads")
struct ArticleHeadTests {
  let directory = TemporaryDirectory()
  let clock = TestDate()

  func store(retention: RetentionPolicy = .everything) -> ArticleStore {
    let clock = self.clock
    return ArticleStore.testing(in: directory.url, retention: retention, now: { clock.now })
  }

  /// An article with every field set, so that a head read past a field of the wrong length
  /// reads the next record wrong.
  func article(_ index: Int, provider: String, dated: Bool = true) -> Article {
    var article = Article(
      id: "\(provider)-\(index)", provider: provider, title: "Story \(index) ✓",
      description: "About \(index)", author: "Author \(index)", publisher: "Publisher",
      url: "https://example.com/\(index)", imageURL: "https://example.com/\(index).png",
      publishedAt: dated ? Date(timeIntervalSince1970: 1_000_000 + Double(index)) : nil,
      content: String(repeating: "text \(index) ", count: index % 7))
    article.categories = index.isMultiple(of: 3) ? ["one", "two"] : []
    return article
  }

  /// Heads compared as the full read gives them.
  func heads(_ seen: [(article: Article, seenAt: Date?)]) -> [String: ArticleHead] {
    Dictionary(uniqueKeysWithValues: seen.map { ($0.article.id, ArticleHead($0.article)) })
  }

  @Test(
    "the heads are every stored and bookmarked article's id, source, dates and last sight",
    arguments: [3, 600])
  func sameAsFull(count: Int) throws {
    let store = store()
    // One segment of `count` (600 is split into chunks), a later one, an undated article.
    try store.keep((0..<count).map { article($0, provider: "feed") }, provider: "feed")
    clock.advance(by: 60)
    try store.keep((count..<count + 5).map { article($0, provider: "feed") }, provider: "feed")
    try store.keep([article(1, provider: "other", dated: false)], provider: "other")
    // Bookmarked without being stored.
    try store.addBookmarks([article(7, provider: "page")])

    let full = try store.allArticlesSeen()
    let heads = try store.allArticleHeads()
    #expect(heads.count == count + 7)
    #expect(
      Dictionary(uniqueKeysWithValues: heads.map { ($0.head.id, $0.head) }) == self.heads(full))
    let seen = Dictionary(uniqueKeysWithValues: full.map { ($0.article.id, $0.seenAt) })
    #expect(heads.allSatisfy { seen[$0.head.id] == $0.seenAt })
    #expect(heads.first { $0.head.id == "page-7" }?.seenAt == nil)
    #expect(heads.first { $0.head.id == "feed-\(count)" }?.seenAt == clock.now)
  }

  @Test("heads leave out what retention does: too old, or past the most kept")
  func retention() throws {
    let kept = RetentionPolicy(maximumAge: .seconds(86_400), maximumCount: 4)
    let store = store(retention: kept)
    try store.keep((0..<2).map { article($0, provider: "old") }, provider: "old")
    clock.advance(by: 2 * 86_400)
    // Five stored (a quarter over the most kept is compacted only past it), four read.
    try store.keep((0..<4).map { article($0, provider: "feed") }, provider: "feed")
    clock.advance(by: 60)
    try store.keep([article(4, provider: "feed")], provider: "feed")
    let full = try store.allArticlesSeen()
    let heads = try store.allArticleHeads()
    #expect(Set(heads.map(\.head.id)) == Set(full.map(\.article.id)))
    #expect(heads.count == 4)
    #expect(heads.contains { $0.head.id == "feed-4" })
  }

  @Test("the articles of heads: each from its source's segments, else its bookmark; gone, absent")
  func articlesOfHeads() throws {
    let store = store()
    let stored = (0..<300).map { article($0, provider: "feed") }
    try store.keep(stored, provider: "feed")
    try store.keep([article(5, provider: "other")], provider: "other")
    let page = article(9, provider: "page")
    try store.addBookmarks([page])
    let asked = [stored[0], stored[299], article(5, provider: "other"), page].map(ArticleHead.init)
    let gone = ArticleHead(id: "feed-gone", provider: "feed", publishedAt: nil)

    let found = try store.articles(of: asked + [gone])
    #expect(found.count == 4)
    #expect(found["feed-0"] == stored[0] && found["feed-299"] == stored[299])
    #expect(found["other-5"] == article(5, provider: "other"))
    #expect(found["page-9"] == page)
    #expect(found["feed-gone"] == nil)
    #expect(try store.articles(of: []).isEmpty)
  }

  @Test("heads are read where they were read; once their segment is replaced, looked for")
  func placedThenCompacted() throws {
    let store = store()
    let stored = (0..<300).map { article($0, provider: "feed") }
    try store.keep(stored, provider: "feed")
    let heads = try store.allArticleHeads().map(\.head)
    #expect(heads.allSatisfy { $0.place != nil })
    let placed = try store.articles(of: heads)
    #expect(placed.count == 300 && placed["feed-42"] == stored[42])
    // Merged with a newer save into a new segment: the places read no longer stand.
    let before = Set(try store.allArticleHeads().compactMap(\.head.place?.segment))
    clock.advance(by: 60)
    try store.keep((300..<500).map { article($0, provider: "feed") }, provider: "feed")
    let after = Set(try store.allArticleHeads().compactMap(\.head.place?.segment))
    #expect(before.isDisjoint(with: after))
    #expect(try store.articles(of: heads) == placed)
  }

  @Test("heads kept by segment: a second read opens only the segments written since")
  func keptBySegment() throws {
    let store = store()
    try store.keep((0..<600).map { article($0, provider: "feed") }, provider: "feed")
    let kept = SegmentHeads()
    let first = try store.allArticleHeads(kept: kept)
    #expect(first.count == 600 && kept.count == 1)
    // Its chunks are gone from the disk: kept, the segment is not read again.
    let chunks = store.store.names().filter { $0.contains("-c") }
    #expect(!chunks.isEmpty)
    for name in chunks { try FileManager.default.removeItem(at: store.store.url(for: name)) }
    clock.advance(by: 60)
    try store.keep((600..<602).map { article($0, provider: "feed") }, provider: "feed")
    let second = try store.allArticleHeads(kept: kept)
    #expect(second.count == 602)
    #expect(kept.count == 2)
    // Without them, the removed chunks' records are not there to read.
    #expect(try store.allArticleHeads().count < 602)
  }
}
