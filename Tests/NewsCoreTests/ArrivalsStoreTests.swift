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

  @Test("a file of first-seen times is JSON that JSONDecoder reads as the same values")
  func json() throws {
    let file: [String: Double] = [
      "plain": 1_700_000_000, "fraction": 1_764_924_000.123, "tiny": 1e-7, "huge": 1e300,
      "negative": -86_400.5, "quote\"and\\back": 1, "line\nbreak\u{7}": 2, "café 日本": 3, "": 0,
    ]
    let bytes = try #require(ArticleStore.arrivalsJSON(file))
    #expect(try JSONDecoder().decode([String: Double].self, from: Data(bytes)) == file)
    #expect(
      try JSONDecoder().decode(
        [String: Double].self,
        from: Data(
          #require(
            ArticleStore.arrivalsJSON([:])))) == [:])
    #expect(ArticleStore.arrivalsJSON(["x": .infinity]) == nil)
    #expect(ArticleStore.arrivalsJSON(["x": .nan]) == nil)
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
