import Foundation
import TestSupport
import Testing

@testable import NewsCore

@Suite("Article store")
struct ArticleStoreTests {
  let directory = TemporaryDirectory()
  let clock = TestDate()

  func store(retention: RetentionPolicy = RetentionPolicy()) -> ArticleStore {
    let key = StoreKey(bytes: [UInt8](repeating: 3, count: 32), source: "test")
    let clock = self.clock
    return ArticleStore(
      store: EncryptedStore(directory: directory.url, key: key, randomBytes: SecureRandom.bytes),
      retention: retention,
      now: { clock.now })
  }

  func article(_ id: String, title: String = "Title", day: Int = 0) -> Article {
    Article(
      id: id, provider: "newsapi", title: title,
      publishedAt: Date(timeIntervalSince1970: Double(day) * 86_400))
  }

  func page(_ articles: [Article]) -> ArticleList {
    ArticleList(
      provider: "newsapi", totalResults: articles.count, articles: articles,
      fetchedAt: clock.now)
  }

  @Test("read marks: set, undone, and outliving their articles while still listed")
  func readMarks() throws {
    let store = store(retention: RetentionPolicy(maximumAge: .seconds(86_400)))
    #expect(try store.markRead(["x", "y"]) == 2)
    #expect(try store.markRead(["x"]) == 0)
    #expect(try store.markUnread(["y", "z"]) == 1)
    #expect(try store.readIDs() == ["x"])
    try store.markRead(["gone"])
    // 60 days on, "x" is still listed by its source: listing it stamps its mark again.
    clock.advance(by: 60 * 86_400)
    try store.noteListed(["x", "new"], read: try store.readIDs())
    // 100 days after they were set, only the listed one is left (90 days without being seen).
    clock.advance(by: 40 * 86_400)
    try store.markRead(["other"])
    #expect(try store.readIDs() == ["x", "other"])
  }

  @Test("a listing carries its articles: offline reading and show n survive retention")
  func listingsCarryArticles() throws {
    let store = store()
    try store.save(page([article("a", title: "First"), article("b")]), key: "newsapi country=us")
    // Retention (or anything) drops the provider's articles: the listing still has them.
    for name in store.store.names() where name == SegmentManifest.fileName || name.hasPrefix("seg-")
    {
      try FileManager.default.removeItem(at: store.store.url(for: name))
    }
    #expect(try store.articles(provider: "newsapi").isEmpty)
    #expect(
      try store.listing(for: "newsapi country=us")?.articles.map(\.title) == ["First", "Title"])
    #expect(try store.lastListing()?.articles.map(\.id) == ["a", "b"])
    // File names tell nothing of the query.
    #expect(store.store.names().allSatisfy { !$0.contains("country") && !$0.contains("us") })
  }

  @Test("one slot file per query, reused and pruned; a slot holding another query is ignored")
  func listingSlots() throws {
    let store = store()
    for index in 0..<3 {
      clock.advance(by: 1)
      try store.save(page([article("x\(index)")]), key: "q\(index)", makeLast: false)
    }
    try store.save(page([article("x0"), article("y")]), key: "q0", makeLast: false)
    #expect(
      store.store.names().filter { $0.hasPrefix("listing-") } == [
        "listing-0", "listing-1", "listing-2",
      ])
    // As a crash between the slot file and the index could leave it: slot 1 holding q0's list.
    let q0 = try #require(try store.store.read(Listing.self, name: "listing-0"))
    try store.store.write(q0, name: "listing-1")
    #expect(try store.listing(for: "q1")?.articles.map(\.id) == ["x1"])
    // Beyond 200 queries the oldest go, their slot files with them.
    for index in 3..<203 {
      clock.advance(by: 1)
      try store.save(page([article("z\(index)")]), key: "q\(index)", makeLast: false)
    }
    let slots = store.store.names().filter { $0.hasPrefix("listing-") }
    #expect(slots.count == 200)
    #expect(try store.listing(for: "q1") == nil)
    #expect(try store.listing(for: "q202")?.articles.map(\.id) == ["z202"])
  }

  @Test("a listing written before listings carried articles is read through its ids")
  func oldListings() throws {
    let store = store()
    try store.keep([article("a"), article("b")], provider: "newsapi")
    let old = Listing(
      key: "k", provider: "newsapi", ids: ["b", "a"], totalResults: 2, fetchedAt: clock.now)
    try store.store.write(["k": old], name: "listings")
    try store.store.write(old, name: "last-listing")
    #expect(try store.listing(for: "k")?.articles.map(\.id) == ["b", "a"])
    #expect(try store.lastListing()?.articles.map(\.id) == ["b", "a"])
  }

  @Test("a saved page is the listing for its query and the last listing")
  func save() throws {
    let store = store()
    let new = try store.save(page([article("a"), article("b")]), key: "q1", countingNew: true)
    #expect(new == 2)
    #expect(
      try store.save(page([article("b"), article("c")]), key: "q2", countingNew: true) == 1)
    // Counting reads every stored id: only sync asks for it.
    #expect(try store.save(page([article("d")]), key: "q3", makeLast: false) == 0)
    #expect(try store.listing(for: "q1")?.articles.map(\.id) == ["a", "b"])
    #expect(try store.lastListing()?.articles.map(\.id) == ["b", "c"])
    #expect(try store.listing(for: "unknown") == nil)
  }

  @Test("retention keeps the most recently seen articles, at most N and not too old")
  func retention() throws {
    let store = store(retention: RetentionPolicy(maximumAge: .seconds(86_400), maximumCount: 2))
    for id in ["a", "b", "c"] {
      try store.keep([article(id)], provider: "newsapi")
      clock.advance(by: 10)
    }
    #expect(Set(try store.articles(provider: "newsapi").map(\.id)) == ["b", "c"])
    clock.advance(by: 2 * 86_400)
    try store.keep([article("d")], provider: "newsapi")
    #expect(try store.articles(provider: "newsapi").map(\.id) == ["d"])
  }

  @Test("bookmarks survive retention")
  func bookmarksSurvive() throws {
    let store = store(retention: RetentionPolicy(maximumAge: .seconds(60), maximumCount: 1))
    try store.keep([article("kept", title: "Bookmarked")], provider: "newsapi")
    try store.addBookmarks([article("kept", title: "Bookmarked")])
    clock.advance(by: 3600)
    try store.keep([article("x"), article("y")], provider: "newsapi")
    #expect(!(try store.articles(provider: "newsapi").map(\.id).contains("kept")))
    #expect(try store.bookmarks().map(\.id) == ["kept"])
    #expect(try store.allArticles().contains { $0.id == "kept" })
  }

  @Test("bookmarks are added once and removed by id")
  func bookmarks() throws {
    let store = store()
    #expect(try store.addBookmarks([article("a"), article("b")]) == 2)
    #expect(try store.addBookmarks([article("a")]) == 0)
    #expect(try store.removeBookmarks(["a", "zzz"]) == ["zzz"])
    #expect(try store.bookmarks().map(\.id) == ["b"])
  }

  @Test(
    "search: every word, any case and accent, newest first",
    arguments: [
      (["climate"], ["new", "old"]), (["CLIMATE", "talks"], ["new"]), (["cafe"], ["accent"]),
      (["nothing"], []), (["body"], ["content"]),
    ])
  func search(words: [String], expected: [String]) {
    let articles = [
      article("old", title: "Climate change", day: 1),
      article("new", title: "Climate talks", day: 5),
      Article(id: "accent", provider: "x", title: "Le Café", publishedAt: nil),
      Article(id: "content", provider: "x", title: "T", description: "d", content: "in the body"),
    ]
    #expect(ArticleSearch.matching(words, in: articles).map(\.id) == expected)
  }
}

extension ArticleStoreTests {
  @Test("searching the store equals matching every stored and bookmarked article")
  func storeSearch() throws {
    let store = store()
    try store.keep(
      [article("a", title: "Climate talks", day: 2), article("b", title: "Sports", day: 3)],
      provider: "newsapi")
    try store.keep([article("bbc-1", title: "Climate \"quoted\"", day: 1)], provider: "bbc")
    try store.addBookmarks([article("bm", title: "Bookmarked climate", day: 9)])
    let expected = ArticleSearch.matching(["climate"], in: try store.allArticles())
    #expect(try store.search(["climate"]) == expected)
    #expect(try store.search(["climate"]).map(\.id) == ["bm", "a", "bbc-1"])
    #expect(try store.search([]).isEmpty)
  }
}
