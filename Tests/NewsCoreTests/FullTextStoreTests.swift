import FeedParsing
import Foundation
import TestSupport
import Testing

@testable import NewsCore

/// Full texts kept beside the articles, and gone with them.
@Suite("Full texts in the store")
struct FullTextStoreTests {
  let directory = TemporaryDirectory()
  let clock = TestDate()

  func store() -> ArticleStore {
    let clock = clock
    return ArticleStore.testing(
      in: directory.url,
      retention: RetentionPolicy(maximumAge: .seconds(86_400), maximumCount: 100),
      now: { clock.now })
  }

  func text(_ url: String) -> FullText {
    FullText(
      url: url, title: "T", byline: nil, siteName: nil, excerpt: nil, imageURL: nil,
      publishedAt: nil, extractedAt: clock.now, html: "<p>words of \(url)</p>")
  }

  @Test("a full text is stored as the flat object of earlier versions, and reads it")
  func storedShape() throws {
    let written =
      #"{"url":"https://e/1","title":"T","byline":"Ann","extractedAt":5,"html":"<p>one two</p>"}"#
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    let text = try decoder.decode(FullText.self, from: Data(written.utf8))
    #expect(text.title == "T" && text.byline == "Ann" && text.words == 2)
    #expect(text.extractedAt == Date(timeIntervalSince1970: 5))
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    let object = try JSONSerialization.jsonObject(with: try encoder.encode(text)) as? [String: Any]
    #expect(
      Set(object?.keys.map { $0 } ?? []) == ["url", "title", "byline", "extractedAt", "html"])
  }

  /// Ids whose full texts share one file.
  static func sameShard(_ count: Int) -> [String] {
    let first = "e.example-0"
    let shard = BesideKind.shard(of: first)
    var ids = [first]
    var index = 1
    while ids.count < count {
      let id = "e.example-\(index)"
      if BesideKind.shard(of: id) == shard { ids.append(id) }
      index += 1
    }
    return ids
  }

  @Test("kept and read back; which ids have one; every one for search")
  func keep() throws {
    let store = store()
    let ids = Self.sameShard(2)
    try store.keepFullText(text("https://e.example/0"), for: ids[0])
    #expect(try store.fullText(of: ids[0])?.url == "https://e.example/0")
    #expect(try store.fullText(of: ids[1]) == nil)
    #expect(try store.fullTexts(among: ids + ["other"]) == [ids[0]])
    #expect(try store.allFullTexts().keys.sorted() == [ids[0]])
  }

  @Test("one goes with its article: not stored, not bookmarked, older than retention's age")
  func retention() throws {
    let store = store()
    let ids = Self.sameShard(4)
    // ids[1] is stored, ids[2] bookmarked, ids[0] neither: all three kept a day and more ago.
    let stored = Article(id: ids[1], provider: "blog", title: "Stored", url: "https://e.example/1")
    let marked = Article(id: ids[2], provider: "blog", title: "Marked", url: "https://e.example/2")
    for id in ids.prefix(3) { try store.keepFullText(text("https://e.example/" + id), for: id) }
    clock.advance(by: 2 * 86_400)
    try store.keep([stored], provider: "blog")
    _ = try store.addBookmarks([marked])
    try store.keepFullText(text("https://e.example/3"), for: ids[3])
    #expect(try store.fullTexts(among: ids) == Set(ids.dropFirst()))
  }
}

/// `NEWS_RETENTION_DAYS=0` and `NEWS_RETENTION_MAX=0`: a store that keeps everything.
@Suite("Retention that keeps everything")
struct KeepEverythingTests {
  @Test("no article is dropped for its age or its number, through a compaction")
  func everything() throws {
    let directory = TemporaryDirectory()
    let clock = TestDate()
    let key = StoreKey.testing(4)
    func store(_ retention: RetentionPolicy) -> ArticleStore {
      ArticleStore(
        store: EncryptedStore(directory: directory.url, key: key, randomBytes: SecureRandom.bytes),
        retention: retention, now: { clock.now })
    }
    let keeping = store(.everything)
    let first = (0..<3).map {
      Article(
        id: "old-\($0)", provider: "blog", title: "Old \($0)", url: "https://e.example/o\($0)")
    }
    try keeping.keep(first, provider: "blog")
    // Ten years later, 7,000 more: past the default count, far past the default age.
    clock.advance(by: 10 * 365 * 86_400)
    let more = (0..<7000).map {
      Article(
        id: "new-\($0)", provider: "blog", title: "New \($0)", url: "https://e.example/n\($0)")
    }
    try keeping.keep(more, provider: "blog")
    #expect(try keeping.articles(provider: "blog").count == 7003)
    #expect(try keeping.article(id: "old-1")?.title == "Old 1")
    // The default policy, on the same files, would not show them.
    #expect(try store(RetentionPolicy()).article(id: "old-1") == nil)
  }
}
