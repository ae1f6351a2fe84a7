import Foundation
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

@Suite("Article store")
struct ArticleStoreTests {
  let directory = TemporaryDirectory()
  let clock = TestDate()

  func store(retention: RetentionPolicy = RetentionPolicy()) -> ArticleStore {
    let clock = self.clock
    return ArticleStore.testing(in: directory.url, retention: retention, now: { clock.now })
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

  @Test("the same list shown again, at another time, does not write the last listing again")
  func lastListingUnchanged() throws {
    let store = store()
    let listing = Listing(
      key: "search", provider: "search", ids: ["a", "b"], totalResults: 2,
      fetchedAt: Date(timeIntervalSince1970: 1_000))
    try store.setLastListing(listing)
    let file = store.store.url(for: StoreLayout.lastListing)
    let written = try Data(contentsOf: file)
    var later = listing
    later.fetchedAt = Date(timeIntervalSince1970: 2_000)
    try store.setLastListing(later)
    #expect(try Data(contentsOf: file) == written)
    var other = later
    other.ids = ["b", "a"]
    try store.setLastListing(other)
    #expect(try store.lastListing()?.listing.ids == ["b", "a"])
  }

  @Test("read marks: set, undone, and outliving their articles while still listed")
  func readMarks() throws {
    let store = store(retention: RetentionPolicy(maximumAge: .seconds(86_400)))
    #expect(try store.markRead(["x", "y"]) == 2)
    #expect(try store.markRead(["x"]) == 0)
    #expect(try store.markUnread(["y", "z"]) == 1)
    #expect(try store.readMarks().marked(["x", "y", "z"]) == ["x"])
    try store.markRead(["gone"])
    // 60 days on, "x" is still listed by its source: listing it stamps its mark again.
    clock.advance(by: 60 * 86_400)
    try store.noteListed(["x", "new"], marks: try store.readMarks())
    // 100 days after they were set, only the listed one is left (90 days without being seen).
    clock.advance(by: 40 * 86_400)
    try store.markRead(["other"])
    let marks = try store.readMarks()
    #expect(marks.marked(["x", "y", "gone", "new", "other"]) == ["x", "other"])
    #expect(marks.count == 2)
  }

  @Test(
    "read marks written by an earlier version (a JSON dictionary) still read, and are rewritten")
  func earlierReadMarks() throws {
    let store = store()
    let stamp = clock.now.timeIntervalSince1970
    try store.store.write(["marks": ["a": stamp, "b": stamp - 10]], name: "read")
    #expect(try store.readMarks().marked(["a", "b", "c"]) == ["a", "b"])
    #expect(try store.readMarks(of: ["b"]).contains("b"))
    #expect(try store.markRead(["c"]) == 1)
    #expect(try store.store.readBytes("read") == nil)
    #expect(try Self.markFiles(store).count == 3)
    #expect(try store.readMarks().count == 3)
  }

  @Test("read marks of the one-file layout (NRM1 in read) read whole, split at the first change")
  func oneFileReadMarks() throws {
    let store = store()
    var marks = ReadMarks()
    marks.mark((0..<300).map { "old-\($0)" }, stamp: clock.now.timeIntervalSince1970)
    try store.store.write(bytes: marks.encoded, name: "read")
    #expect(try store.readMarks(of: ["old-7", "new"]).marked(["old-7", "new"]) == ["old-7"])
    // Appended changes leave the old file in place, still read with the log...
    try store.markRead(["new"], counting: false)
    #expect(try store.store.readBytes("read") != nil)
    #expect(try store.readMarks().count == 301)
    // ...a counted change splits it into the files of each hash's first byte.
    #expect(try store.markUnread(["old-1"]) == 1)
    #expect(try store.store.readBytes("read") == nil)
    #expect(try store.store.readBytes("read-log") == nil)
    let files = try Self.markFiles(store)
    #expect(files.count > 100)
    #expect(files.values.reduce(0) { $0 + (try! ReadMarks(decoding: $1)).count } == 300)
    #expect(try store.readMarks().marked(["old-1", "old-2", "new"]) == ["old-2", "new"])
  }

  @Test("a list's marks come from the files its ids hash to: a damaged other file is not read")
  func readMarksOfSomeIDs() throws {
    var store = store()
    store.readMarksMergeAfter = 8
    try store.markRead((0..<300).map { "old-\($0)" })
    let mine = ReadMarks.shard(of: ReadMarks.key("old-7"))
    let other = (mine + 1) % ReadMarks.shardCount
    try Data("damaged".utf8).write(
      to: store.store.url(for: "read-" + String(format: "%02x", other)))
    let some = try store.readMarks(of: ["old-7"])
    #expect(some.contains("old-7") && some.unreadableFiles.isEmpty)
    // Read whole, the damaged file is named, and costs only its own marks.
    let all = try store.readMarks()
    #expect(all.unreadableFiles.count == 1 && all.contains("old-7"))
  }

  /// The read-mark files of `store` by name (`read-00` … `read-ff`), decrypted.
  static func markFiles(_ store: ArticleStore) throws -> [String: [UInt8]] {
    var files: [String: [UInt8]] = [:]
    for name in store.store.names() where name.count == 7 && name.hasPrefix("read-") {
      files[name] = try store.store.readBytes(name)
    }
    return files
  }

  @Test("read marks: 100,000 set at once, then one more, by merging (the file stays sorted)")
  func manyReadMarks() throws {
    var marks = ReadMarks()
    let ids = (0..<100_000).map { "article-\($0)" }
    #expect(marks.mark(ids, stamp: 1000) == 100_000)
    #expect(marks.mark(["article-5", "extra"], stamp: 2000) == 1)
    let decoded = try ReadMarks(decoding: marks.encoded)
    #expect(decoded == marks)
    #expect(decoded.count == 100_001)
    #expect(decoded.stamp(of: "article-5") == 2000)
    #expect(decoded.stamp(of: "article-6") == 1000)
    #expect(!decoded.contains("article-100000"))
    #expect(marks.unmark(["article-1", "nope"]) == 1)
    marks.prune(now: Date(timeIntervalSince1970: 1500 + 100), lifetime: 100)
    #expect(marks.marked(["article-5", "extra", "article-6"]) == ["article-5", "extra"])
  }

  @Test("marking a few writes a few records to read-log; 4,096 changes are merged into the files")
  func readMarksLog() throws {
    var store = store()
    store.readMarksMergeAfter = 8
    try store.markRead((0..<300).map { "old-\($0)" })
    let base = try Self.markFiles(store)
    #expect(base.count > 100)
    #expect(try store.store.readBytes("read-log") == nil)
    #expect(try store.markRead(["a", "old-1"]) == 1)
    #expect(try store.markUnread(["old-2"]) == 1)
    // The 300 marks were not written again: only the three changes were.
    #expect(try Self.markFiles(store) == base)
    let log = try ReadMarksLog(decoding: try #require(try store.store.readBytes("read-log")))
    // "old-1" was marked at the same time already: no change to record.
    #expect(log.changes.count == 2)
    let marks = try store.readMarks()
    #expect(marks.count == 300)
    #expect(marks.marked(["a", "old-1", "old-2", "old-3"]) == ["a", "old-1", "old-3"])
    // Past 8 changes (4,096 outside tests) they are merged into the files, and the log is gone.
    try store.markRead((0..<10).map { "new-\($0)" })
    #expect(try store.store.readBytes("read-log") == nil)
    #expect(try Self.markFiles(store) != base)
    #expect(try store.readMarks().count == 310)
  }

  @Test("a merge writes only the files whose marks changed, and removes the files it empties")
  func mergeWritesChangedFiles() throws {
    var store = store()
    store.readMarksMergeAfter = 8
    try store.markRead((0..<300).map { "old-\($0)" })
    let base = try Self.markFiles(store)
    // Nine ids whose hashes all start with one byte: one file changes.
    let target = ReadMarks.shard(of: ReadMarks.key("old-0"))
    let ids = (0..<100_000).lazy.map { "new-\($0)" }
      .filter { ReadMarks.shard(of: ReadMarks.key($0)) == target }.prefix(9)
    #expect(try store.markRead(Array(ids)) == 9)
    #expect(try store.store.readBytes("read-log") == nil)
    let after = try Self.markFiles(store)
    #expect(after.keys.filter { after[$0] != base[$0] } == [StoreLayout.readMarksShard(target)])
    // Unmarking every id of that file removes it.
    let inFile = (0..<300).map { "old-\($0)" }.filter {
      ReadMarks.shard(of: ReadMarks.key($0)) == target
    }
    try store.markUnread(Array(ids) + inFile, counting: false)
    #expect(try Self.markFiles(store).count == base.count - 1)
    #expect(try store.readMarks().count == 300 - inFile.count)
  }

  @Test("marking without counting appends to the log without reading the marks")
  func markWithoutCounting() throws {
    var store = store()
    store.readMarksMergeAfter = 8
    // Past 8 changes at once (4,096 outside tests): merged into the files.
    try store.markRead((0..<300).map { "old-\($0)" })
    let base = try Self.markFiles(store)
    #expect(try store.markRead(["a", "old-1"], counting: false) == 0)
    #expect(try store.markUnread(["old-2"], counting: false) == 0)
    #expect(try Self.markFiles(store) == base)
    #expect(
      try store.readMarks().marked(["a", "old-1", "old-2", "old-3"]) == ["a", "old-1", "old-3"])
    // A full log is merged here too.
    try store.markRead((0..<10).map { "new-\($0)" }, counting: false)
    #expect(try store.store.readBytes("read-log") == nil)
    #expect(try store.readMarks().count == 300 + 1 - 1 + 10)
  }

  @Test("a change of the marks and its log, applied twice, change nothing more")
  func readMarksChanges() {
    var before = ReadMarks()
    before.mark(["a", "b", "c"], stamp: 100)
    var after = before
    after.mark(["d"], stamp: 200)
    after.unmark(["b"])
    _ = after.restamp(["c"], stamp: 100 + 2 * 86_400)
    let changes = before.changes(to: after)
    #expect(changes.count == 3)
    #expect(before.applying(changes) == after)
    #expect(before.applying(changes).applying(changes) == after)
    #expect(after.changes(to: after).isEmpty)
  }

  @Test(
    "damaged read marks are named and cost only themselves, never a crash",
    arguments: [[UInt8]("NRM1".utf8) + [3, 1, 2], [UInt8]("NRM1".utf8) + [200], Array("{x".utf8)])
  func damagedReadMarks(bytes: [UInt8]) throws {
    #expect(throws: BinaryReader.Malformed.self) { try ReadMarks(decoding: bytes) }
    #expect(throws: BinaryReader.Malformed.self) { try ReadMarksLog(decoding: bytes) }
    let store = store()
    try store.markRead(["kept"])
    try store.store.write(bytes: bytes, name: "read-log")
    let marks = try store.readMarks()
    #expect(marks.unreadableFiles == [store.store.url(for: "read-log").path])
    #expect(try store.markRead(["x"]) == 1)
    // "kept" was in the log that was damaged: lost with it, and only it.
    #expect(try store.readMarks().marked(["x", "kept"]) == ["x"])
  }

  @Test("a listing carries its articles: offline reading and show n survive retention")
  func listingsCarryArticles() throws {
    let store = store()
    try store.save(page([article("a", title: "First"), article("b")]), key: "newsapi country=us")
    // Retention (or anything) drops the provider's articles: the listing still has them.
    for name in store.store.names() where name.hasPrefix("seg") {
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
    // The index names no ids: the query is not answered from the store (the next fetch is).
    #expect(try store.listing(for: "q1") == nil)
    #expect(try store.listing(for: "q0")?.articles.map(\.id) == ["x0", "y"])
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

  @Test("an index written by an earlier version (a listing with ids per query) still reads")
  func oldListings() throws {
    let store = store()
    try store.keep([article("a"), article("b")], provider: "newsapi")
    struct Earlier: Encodable {
      var key: String
      var provider: String
      var ids: [String]
      var totalResults: Int
      var fetchedAt: Date
      var slot: Int?
    }
    var full = Listing(
      key: "k", provider: "newsapi", ids: ["b", "a"], totalResults: 2, fetchedAt: clock.now)
    full.articles = [article("b"), article("a")]
    try store.store.write(full, name: "listing-3")
    let entry = Earlier(
      key: "k", provider: "newsapi", ids: ["b", "a"], totalResults: 2, fetchedAt: clock.now,
      slot: 3)
    var noSlot = entry
    noSlot.key = "before-slots"
    noSlot.slot = nil
    try store.store.write(["k": entry, "before-slots": noSlot], name: "listings")
    try store.store.write(
      Listing(
        key: "k", provider: "newsapi", ids: ["b", "a"], totalResults: 2, fetchedAt: clock.now),
      name: "last-listing")
    #expect(try store.listing(for: "k")?.articles.map(\.id) == ["b", "a"])
    // A listing from before listing files had only its ids in the index: fetched again instead.
    #expect(try store.listing(for: "before-slots") == nil)
    #expect(try store.lastListing()?.articles.map(\.id) == ["b", "a"])
    // The next save writes the index without ids.
    try store.save(page([article("c")]), key: "new", makeLast: false)
    let index = try #require(try store.store.readBytes("listings"))
    #expect(!String(decoding: index, as: UTF8.self).contains("ids"))
  }

  @Test("a damaged listings index is rebuilt by repair from the listing files, none orphaned")
  func listingIndexRebuilt() throws {
    let store = store()
    for index in 0..<3 {
      clock.advance(by: 1)
      try store.save(page([article("x\(index)")]), key: "q\(index)", makeLast: false)
    }
    let url = store.store.url(for: "listings")
    var bytes = try Data(contentsOf: url)
    bytes[bytes.count - 1] ^= 0xFF
    try bytes.write(to: url)
    #expect(throws: StoreError.self) { try store.listing(for: "q1") }
    try FileManager.default.removeItem(at: url)
    #expect(try store.rebuildListingIndex() == 3)
    for index in 0..<3 {
      #expect(try store.listing(for: "q\(index)")?.articles.map(\.id) == ["x\(index)"])
    }
  }

  @Test("a saved page is the listing for its query and the last listing")
  func save() throws {
    let store = store()
    let new = try store.save(page([article("a"), article("b")]), key: "q1", countingNew: true)
    #expect(new.count == 2)
    #expect(
      try store.save(page([article("b"), article("c")]), key: "q2", countingNew: true).map(\.id)
        == ["c"])
    // Counting reads every stored id: only sync asks for it.
    #expect(try store.save(page([article("d")]), key: "q3", makeLast: false).isEmpty)
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
    #expect(try store.search(["climate"]).articles == expected)
    #expect(try store.search(["climate"]).articles.map(\.id) == ["bm", "a", "bbc-1"])
    #expect(try store.search([]).articles.isEmpty)
  }
}
