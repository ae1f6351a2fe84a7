import Foundation
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

@Suite("a source's items packed until shown")
struct FeedItemPackTests {
  /// Items with every field set or absent in turn, one carrying enclosures.
  func items(_ count: Int) -> [FeedItem] {
    (0..<count).map { index in
      var item = FeedItem(
        id: "id-\(index)", feed: index == 2 ? "saved" : "feed", title: "T\(index)")
      if index % 2 == 0 { item.description = "about é \(index)" }
      if index % 3 == 0 { item.imageURL = "https://img.example/\(index).png" }
      if index != 1 { item.url = "https://example.com/\(index)" }
      if index % 2 == 1 {
        item.publishedAt = Date(timeIntervalSince1970: 1_700_000_000 + Double(index))
      }
      if index == 3 { item.author = "Ann" }
      if index == 4 { item.content = String(repeating: "long text ", count: 100) }
      if index == 5 {
        item.enclosures = [
          Enclosure(url: "https://cdn.example/5.mp3", type: "audio/mpeg", length: 9)
        ]
      }
      return item
    }
  }

  @Test("every field comes back as it went in, enclosures too, in order")
  func roundTrip() {
    let items = items(7)
    let pack = FeedItemPack(items)
    #expect(pack.items == items)
    #expect(pack.ids == items.map(\.id))
    #expect(pack.count == 7)
    #expect(pack.idsWithoutEnclosures == items.map(\.id).filter { $0 != "id-5" })
    #expect(FeedItemPack([]).items.isEmpty && FeedItemPack([]).isEmpty)
  }

  @Test(
    "narrowed, it decodes only what is left, skipping the rest",
    arguments: [
      (Set(["id-0", "id-6"]), nil), (Set(["id-1", "id-4", "id-5"]), nil), (Set<String>(), nil),
      (Set(["id-0", "id-2", "id-3", "id-4"]), 2), (Set(["id-6"]), 0),
    ] as [(Set<String>, Int?)])
  func narrowed(keep: Set<String>, prefix: Int?) {
    let items = items(7)
    var pack = FeedItemPack(items)
    var asked: [String] = []
    pack.filterWithSource { id, source in
      asked.append(id)
      #expect(source == (id == "id-2" ? "saved" : "feed"))
      return keep.contains(id)
    }
    // Asked once an item, in order.
    #expect(asked == items.map(\.id))
    var expected = items.filter { keep.contains($0.id) }
    if let prefix {
      pack.prefix(prefix)
      expected = Array(expected.prefix(prefix))
    }
    #expect(pack.items == expected)
    #expect(pack.ids == expected.map(\.id))
    #expect(pack.idsWithoutEnclosures == expected.filter(\.enclosures.isEmpty).map(\.id))
  }

  @Test("a cache entry written from the pack reads back as one written from the items")
  func cacheEntry() throws {
    var pack = FeedItemPack(items(7))
    pack.filter { $0 != "id-3" }
    pack.prefix(5)
    var entry = FeedCacheEntry(
      url: "https://example.com/feed", items: [], fetchedAt: Date(timeIntervalSince1970: 1_000),
      etag: "\"v1\"", lastModified: nil, kept: true)
    entry.freshFor = 600
    let packed = try entry.encoded(with: pack)
    entry.items = pack.items
    #expect(try packed == entry.encoded())
    let read = try FeedCacheEntry.decode(packed)
    // The cache keeps no enclosures; everything else comes back.
    #expect(
      read.items
        == pack.items.map { item in
          var plain = item
          plain.enclosures = []
          return plain
        })
    #expect(read.etag == "\"v1\"" && read.kept == true && read.freshFor == 600)
  }

  @Test(
    "spilled once in its cache entry, the pack reads its items back from it, narrowed or not",
    arguments: [nil, Set(["id-1", "id-4", "id-5"])] as [Set<String>?])
  func spilled(keep: Set<String>?) throws {
    let items = items(7)
    let entry = FeedCacheEntry(
      url: "https://example.com/feed", items: [], fetchedAt: Date(timeIntervalSince1970: 1_000),
      etag: nil, lastModified: nil, kept: true)
    var pack = FeedItemPack(items)
    let written = try entry.encoded(with: pack)
    let reads = Recorder<Int>()
    pack.spill {
      reads.record(1)
      return written
    }
    #expect(pack.isSpilled && reads.all.isEmpty)
    if let keep { pack.filter { keep.contains($0) } }
    let expected = items.filter { keep?.contains($0.id) ?? true }
    // Enclosures are held (few items carry some); the rest comes back from the entry.
    #expect(pack.items == expected)
    #expect(reads.all.count == 1)
    // Written again (a cache entry of what is left), the bytes are those of the items.
    var copy = entry
    copy.items = expected
    #expect(try entry.encoded(with: pack) == copy.encoded())
  }

  @Test(
    "a cache entry read packed holds its items as the entry read whole does, narrowed or not",
    arguments: [nil, 0, 3, 9] as [Int?])
  func readPacked(prefix: Int?) throws {
    var entry = FeedCacheEntry(
      url: "https://example.com/feed", items: [], fetchedAt: Date(timeIntervalSince1970: 1_000),
      etag: "\"v2\"", lastModified: "Mon", kept: true)
    entry.freshFor = 60
    entry.postsEvery = 3_600
    entry.items = items(7).map { item in
      var plain = item
      plain.enclosures = []
      return plain
    }
    let bytes = try entry.encoded()
    let whole = try FeedCacheEntry.decode(bytes)
    var (summary, pack) = try #require(try FeedCacheEntry.decodePacked(bytes))
    #expect(summary.items.isEmpty)
    summary.items = whole.items
    #expect(try summary.encoded() == whole.encoded())
    if let prefix { pack.prefix(prefix) }
    let expected = Array(whole.items.prefix(prefix ?? 7))
    #expect(pack.ids == expected.map(\.id))
    #expect(pack.items == expected)
    // Written back (a 304 of an entry not yet kept), the bytes are those of the items.
    var copy = entry
    copy.items = expected
    #expect(try entry.encoded(with: pack) == copy.encoded())
  }

  @Test("an entry of an earlier format is not read packed (its items are decoded whole)")
  func earlierFormatNotPacked() throws {
    let json = Array(
      #"{"url":"https://example.com/feed","items":[],"fetchedAt":1000}"#.utf8)
    #expect(try FeedCacheEntry.decodePacked(json) == nil)
    #expect(try FeedCacheEntry.decode(json).url == "https://example.com/feed")
  }

  @Test("a spilled pack whose entry was replaced by another run's shows none of its items")
  func spilledEntryReplaced() throws {
    let entry = FeedCacheEntry(
      url: "https://example.com/feed", items: [], fetchedAt: Date(timeIntervalSince1970: 1_000),
      etag: nil, lastModified: nil, kept: true)
    var other = items(7)
    other[3].id = "another"
    let replaced = try entry.encoded(with: FeedItemPack(other))
    var pack = FeedItemPack(items(7))
    pack.spill { replaced }
    #expect(pack.items.isEmpty)
    var gone = FeedItemPack(items(7))
    gone.spill { nil }
    #expect(gone.items.isEmpty && gone.count == 7)
    // Narrowed first, a pack is never spilled: the entry would not list its positions.
    var narrowed = FeedItemPack(items(7))
    narrowed.prefix(3)
    narrowed.spill { nil }
    #expect(!narrowed.isSpilled && narrowed.items.count == 3)
  }

  @Test("without bodies, each item lacks only its content and categories, the next still read")
  func withoutBodies() {
    var items = items(7)
    items[1].categories = ["World", "Politics"]
    items[6].content = "<p>the whole story</p>"
    let pack = FeedItemPack(items)
    let listed = pack.items(bodies: false)
    var expected = items
    for index in expected.indices {
      expected[index].content = nil
      expected[index].categories = []
    }
    #expect(listed == expected)
    #expect(pack.items(bodies: true) == items)
  }
}
