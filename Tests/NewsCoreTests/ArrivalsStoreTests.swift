import Foundation
import TestSupport
import Testing

@testable import NewsCore

/// First-seen times (`feed --since`): 64 files by id, each its latest 1,000, the single file of
/// the earlier layout folded in.
@Suite("Arrivals in the store")
struct ArrivalsStoreTests {
  let directory = TemporaryDirectory()

  func store() -> ArticleStore {
    ArticleStore.testing(
      in: directory.url, retention: .everything,
      now: { Date(timeIntervalSince1970: 1_700_000_000) })
  }

  func files() throws -> Set<String> {
    Set(try FileManager.default.contentsOfDirectory(atPath: directory.url.path))
  }

  @Test("a first time is kept, a second ignored; a run writes only the files its ids hash to")
  func firstSeen() throws {
    let store = store()
    let early = Date(timeIntervalSince1970: 1_000)
    let late = Date(timeIntervalSince1970: 2_000)
    try store.noteArrivals(["one"], at: early)
    let written = try files().filter { $0.hasPrefix("arrivals-") }
    #expect(written == ["\(StoreLayout.arrivalsShard(BesideKind.shard(of: "one"))).enc"])
    try store.noteArrivals(["one", "two"], at: late)
    #expect(try store.arrivals(of: ["one", "two", "three"]) == ["one": early, "two": late])
  }

  @Test("first-seen times and a listing of ids are JSON the store's decoder reads as they were")
  func json() throws {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    let file: [String: Double] = [
      "plain": 1_700_000_000, "fraction": 1_764_924_000.123, "tiny": 1e-7, "huge": 1e300,
      "negative": -86_400.5, "quote\"and\\back": 1, "line\nbreak\u{7}": 2, "café 日本": 3, "": 0,
    ]
    let bytes = try #require(file.compactJSON)
    #expect(try decoder.decode([String: Double].self, from: Data(bytes)) == file)
    let empty = try #require([String: Double]().compactJSON)
    #expect(try decoder.decode([String: Double].self, from: Data(empty)) == [:])
    #expect(["x": Double.infinity].compactJSON == nil)
    #expect(["x": Double.nan].compactJSON == nil)
    // What the store writes goes through it: the file reads back.
    let store = EncryptedStore.testing(in: directory.url, key: 3)
    try store.write(file, name: "times")
    #expect(try store.read([String: Double].self, name: "times") == file)

    var listing = Listing(
      key: "feed \"all\"", provider: "feed/π", ids: ["a", "b/c", "d\u{1}", "日"],
      totalResults: 4, fetchedAt: Date(timeIntervalSince1970: 1_764_924_000.25))
    let written = try #require(listing.compactJSON)
    #expect(try decoder.decode(Listing.self, from: Data(written)) == listing)
    listing.ids = []
    #expect(try decoder.decode(Listing.self, from: Data(#require(listing.compactJSON))) == listing)
    // One carrying its articles is the encoder's.
    listing.articles = []
    #expect(listing.compactJSON == nil)
  }

  @Test("two long listings that differ in their time alone are told the same by their bytes")
  func listingBytes() throws {
    var first = Listing(
      key: "feed", provider: "feed", ids: (0..<2_000).map { "id-\($0)" }, totalResults: 2_000,
      fetchedAt: Date(timeIntervalSince1970: 1_000))
    var later = first
    later.fetchedAt = Date(timeIntervalSince1970: 1_764_924_000.5)
    let bytes = try #require(first.compactJSON)
    #expect(Listing.sameButTime(bytes, try #require(later.compactJSON)))
    later.ids[1_999] = "id-other"
    #expect(!Listing.sameButTime(bytes, try #require(later.compactJSON)))
    later = first
    later.totalResults = 2_001
    #expect(!Listing.sameButTime(bytes, try #require(later.compactJSON)))
    // Written with its articles after the time: never the same by bytes.
    first.articles = [Article(id: "id-0", provider: "feed", title: "t")]
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    let withArticles = Array(try encoder.encode(first))
    first.articles = nil
    #expect(!Listing.sameButTime(withArticles, bytes))
    // The store writes the same list shown again not at all: the file stays the one it was.
    let store = store()
    #expect(try store.setLastListing(first) == nil)
    let file = store.store.files.identity(of: StoreLayout.lastListing)
    later = first
    later.fetchedAt = Date(timeIntervalSince1970: 2_000)
    #expect(try store.setLastListing(later) == nil)
    #expect(store.store.files.identity(of: StoreLayout.lastListing) == file)
    later.ids.removeLast()
    #expect(try store.setLastListing(later) == nil)
    #expect(store.store.files.identity(of: StoreLayout.lastListing) != file)
  }

  @Test("each file keeps its latest 1,000")
  func capped() throws {
    let store = store()
    let shard = BesideKind.shard(of: "id-0")
    let ids = (0..<100_000).map { "id-\($0)" }.filter { BesideKind.shard(of: $0) == shard }
    #expect(ids.count > ArticleStore.arrivalsPerShard)
    let old = Array(ids.prefix(ids.count - ArticleStore.arrivalsPerShard))
    try store.noteArrivals(old, at: Date(timeIntervalSince1970: 1))
    try store.noteArrivals(
      Array(ids.suffix(ArticleStore.arrivalsPerShard)), at: Date(timeIntervalSince1970: 2))
    let kept = try store.arrivals(of: ids)
    #expect(kept.count == ArticleStore.arrivalsPerShard)
    #expect(kept.values.allSatisfy { $0 == Date(timeIntervalSince1970: 2) })
  }

  @Test("the one file of the earlier layout is read, then folded into the shards and removed")
  func legacy() throws {
    let store = store()
    try store.store.write(["old": 500.0], name: StoreLayout.arrivals)
    #expect(try store.arrivals(of: ["old"]) == ["old": Date(timeIntervalSince1970: 500)])
    try store.noteArrivals(["new"], at: Date(timeIntervalSince1970: 900))
    #expect(!store.store.exists(StoreLayout.arrivals))
    #expect(
      try store.arrivals(of: ["old", "new"]) == [
        "old": Date(timeIntervalSince1970: 500), "new": Date(timeIntervalSince1970: 900),
      ])
  }
}
