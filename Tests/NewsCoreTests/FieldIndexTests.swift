import Foundation
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

/// An author's and a category's words are in the search index too, each behind its field's
/// marker (`NSG4`, `NSG5`), so that `author:` and `category:` narrow a search; segments written
/// before (`NSG1`–`NSG3`) are read whole for them, as before.
@Suite("author and category words in the index")
struct FieldIndexTests {
  let directory = TemporaryDirectory()
  let clock = TestDate()

  func store() -> ArticleStore {
    let clock = self.clock
    return ArticleStore.testing(
      in: directory.url, retention: RetentionPolicy(maximumCount: 100_000), now: { clock.now })
  }

  func search(_ text: String, in store: ArticleStore) throws -> [String] {
    let query = try ArticleQuery(text, timeZone: .gmt)
    return try store.search(QueryMatcher(query, facts: QueryFacts(now: clock.now))).articles
      .map(\.id).sorted()
  }

  /// The ids of `all` the query matches, each article matched on its own.
  func matching(_ text: String, in all: [Article]) throws -> [String] {
    var matcher = QueryMatcher(
      try ArticleQuery(text, timeZone: .gmt), facts: QueryFacts(now: clock.now))
    return all.filter { matcher.matches($0) }.map(\.id).sorted()
  }

  @Test(
    "a search narrowed by authors and categories finds what matching every article finds",
    arguments: [UInt64(1), 2, 3])
  func searchEqualsMatching(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let authors = [
      "Ann Lee", "ANN-LEE", "Reporter 12", "José Álvarez", "李明", "a", "O'Brien", "", "Lee, Ann",
    ]
    let categories = ["Tech", "tech/AI", "Politics", "Élections", "U.S.", "東京", "storm-watch"]
    let store = store()
    // Several saves: a large segment (split in parts), small ones, ids saved again.
    for size in [600, 30, 5, 300] {
      clock.advance(by: 60)
      let articles = (0..<size).map { index in
        var article = Article(
          id: "id-\(Int.random(in: 0..<900, using: &random))", provider: "newsapi",
          title: ["climate storm", "climate", "markets"].randomElement(using: &random)!,
          author: Bool.random(using: &random) ? authors.randomElement(using: &random) : nil)
        article.categories = (0..<Int.random(in: 0...2, using: &random)).map { _ in
          categories.randomElement(using: &random)!
        }
        return article
      }
      try store.keep(articles.uniquedByID(), provider: "newsapi")
    }
    let all = try store.allArticles()
    let queries = [
      "author:a", "author:ann", "author:\"Ann Lee\"", "author:lee", "author:jose", "author:李",
      "author:12", "author:o'brien", "author:/^ann\\b/", "author:/lee$/", "category:tech",
      "category:\"tech/ai\"", "category:/^tech$/", "category:elections", "category:u.s.",
      "category:東京", "climate (title:storm OR author:a)", "climate (category:ai OR author:li)",
      "author:zzz OR category:politics", "-author:ann", "markets author:\"reporter 1\"",
    ]
    for query in queries {
      #expect(try search(query, in: store) == (try matching(query, in: all)), "\(query)")
    }
  }

  @Test("`climate (title:storm OR author:a)` reads only the records that may match")
  func narrows() throws {
    let store = store()
    var articles = (0..<40).map {
      Article(
        id: "r\($0)", provider: "newsapi", title: "climate \($0)", author: "Reporter \($0 % 7)")
    }
    articles.append(Article(id: "ann", provider: "newsapi", title: "climate", author: "Ann Lee"))
    articles.append(Article(id: "storm", provider: "newsapi", title: "climate storm"))
    var filed = Article(id: "filed", provider: "newsapi", title: "climate")
    filed.categories = ["Politics", "Storm watch"]
    articles.append(filed)
    try store.keep(articles, provider: "newsapi")
    let info = try #require(try store.segments.manifest().providers["newsapi"]?.first)
    let segment = try SegmentReader(info, in: store.store)
    let query = try ArticleQuery("climate (title:storm OR author:a)", timeZone: .gmt)
    #expect(try segment.records(holdingAny: query.wordBranches)?.count == 2)
    #expect(try search("climate (title:storm OR author:a)", in: store) == ["ann", "storm"])
    // A category's word is looked for among the categories' words only, and the other way.
    let category = try ArticleQuery("category:storm", timeZone: .gmt)
    #expect(try segment.records(holdingAny: category.wordBranches)?.count == 1)
    #expect(try search("category:storm", in: store) == ["filed"])
    let reporter = try ArticleQuery("author:\"reporter 3\"", timeZone: .gmt)
    #expect(try segment.records(holdingAny: reporter.wordBranches)?.count == 40)
    #expect(try search("author:\"reporter 3\"", in: store).count == 6)
  }

  @Test("a run no index word holds leaves nothing before any record list is read")
  func emptyRunFirst() throws {
    let records = (0..<(SegmentBuilder.chunkSize + 10)).map {
      StoredArticle(
        article: Article(
          id: "\($0)", provider: "newsapi", title: "climate \($0)", author: "Reporter \($0 % 7)"),
        seenAt: clock.now)
    }
    let (info, files) = SegmentBuilder.build(number: 1, records: records)
    #expect(info.buckets > 0)
    let raw = EncryptedStore.testing(in: directory.url.appendingPathComponent("raw"), key: 7)
    // Only the main file: reading any record list (a bucket file) would fail.
    try raw.write(bytes: files[0].bytes, name: info.mainName)
    let segment = try SegmentReader(info, in: raw)
    let climate = IndexRun(bytes: Array("climate".utf8))
    #expect(throws: (any Error).self) { try segment.records(holdingAll: [climate]) }
    let none = try segment.records(holdingAll: [
      climate, IndexRun(bytes: Array("a".utf8), field: .author),
    ])
    #expect(none == [])
  }

  @Test("a segment whose index has no authors' words is read whole for `author:`, and still finds")
  func before() throws {
    let records = [
      StoredArticle(
        article: Article(id: "1", provider: "newsapi", title: "climate", author: "Ann Lee"),
        seenAt: clock.now),
      StoredArticle(
        article: Article(id: "2", provider: "newsapi", title: "climate", author: "Bob"),
        seenAt: clock.now),
    ]
    let (info, files) = SegmentBuilder.build(number: 1, records: records)
    let main = files[0].bytes
    #expect(main.starts(with: Array(SegmentBuilder.mainMagic.utf8)))
    let raw = EncryptedStore.testing(in: directory.url.appendingPathComponent("raw"), key: 7)
    // The same segment labelled as one written before: its words are all taken as text words.
    try raw.write(bytes: Array("NSG3".utf8) + main.dropFirst(4), name: info.mainName)
    let before = try SegmentReader(info, in: raw)
    let ann = [IndexRun(bytes: Array("ann".utf8), field: .author)]
    #expect(try before.records(holdingAll: ann) == nil)
    #expect(try before.records(holdingAll: [IndexRun(bytes: Array("climate".utf8))]) == [0, 1])
    try raw.write(bytes: main, name: info.mainName)
    #expect(try SegmentReader(info, in: raw).records(holdingAll: ann) == [0])
  }
}
