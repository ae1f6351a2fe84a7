import Foundation
import Testing

@testable import FeedParsing
@testable import NewsCore

/// The four compact records are each described once (``BinaryLayout``): writing and reading
/// follow the description, skipping is derived from it, and a changed layout without a new magic
/// fails here (#46.5).
@Suite("compact records: described once, held to their magic")
struct BinaryLayoutTests {
  /// Every layout as shipped, by magic. A layout that changes needs a new magic (and the old one
  /// still read, or refused on purpose): add a row, never edit one.
  static let frozen: [String: String] = [
    "NSC1": "sssooooodof",
    "NSC2": "sssooooodofo",
    "NFP1": "sooodoo",
    "NFP2": "sooodooo",
    "NFC2": "sfoob",
    "NFC3": "sfoob",
    "NFC4": "sfoob",
    "NSM1": "iibibi",
    "NSM2": "iibibi",
    "NSM3": "iibibi",
    "NSK1": "i",
    "NSK2": "i",
    "NSW1": "i",
    "NFI1": "iiiii",
    "NFD1": "siiii",
    "NFD2": "siiiii",
  ]

  @Test("each layout is the one frozen under its magic")
  func frozenLayouts() {
    for layout in [
      StoredArticle.layout, StoredArticle.firstLayout, FeedItemPack.itemLayout,
      FeedItemPack.firstItemLayout, FeedCacheEntry.header, SegmentManifest.header,
      SegmentManifest.summarizedHeader, SegmentManifest.firstHeader, FeedCacheIndex.layout,
      SegmentPack.directoryLayout, SegmentPack.firstDirectoryLayout, SegmentPack.filtersLayout,
      FeedCacheIndex.directoryLayout, FeedCacheIndex.firstDirectoryLayout,
    ] {
      #expect(Self.frozen[layout.magic] == layout.signature, "\(layout.magic): \(layout.signature)")
    }
    #expect(String(FeedCacheEntry.itemPrefix.map(\.rawValue)) == "ss")
    #expect(String(FeedCacheEntry.trailer.map(\.rawValue)) == "fofoo")
    #expect(String(SegmentManifest.firstSegmentLayout.map(\.rawValue)) == "iifiibf")
    #expect(String(SegmentManifest.segmentLayout.map(\.rawValue)) == "iifiibfbffbf")
    #expect(String(SegmentManifest.summaryNames.map(\.rawValue)) == "bi")
    #expect(String(SegmentManifest.packLayout.map(\.rawValue)) == "biiiii")
  }

  static let article = Article(
    id: "e-1", provider: "blog", title: "T", description: nil, author: "A", publisher: nil,
    url: "https://e/1", imageURL: nil, publishedAt: Date(timeIntervalSince1970: 5),
    content: "C")

  @Test("an article's record is written and read as its layout says, and skipped by it")
  func storedArticle() throws {
    var filed = Self.article
    filed.categories = ["Climate", "Policy & law", "ends in a return\r", "é"]
    for article in [Self.article, filed] {
      var writer = BinaryWriter(magic: StoredArticle.layout.magic)
      writer.trace = []
      let stored = StoredArticle(article: article, seenAt: Date(timeIntervalSince1970: 9))
      stored.write(to: &writer)
      #expect(writer.trace == StoredArticle.layout.fields)
      var reader = try #require(BinaryReader(try writer.checked(), magic: "NSC2"))
      reader.trace = []
      #expect(try StoredArticle.read(from: &reader).article == article)
      #expect(reader.trace == StoredArticle.layout.fields && reader.isAtEnd)
      var skipping = try #require(BinaryReader(writer.bytes, magic: "NSC2"))
      try StoredArticle.skip(in: &skipping)
      #expect(skipping.isAtEnd)
    }
    // A record of before categories were kept: the same but its last field (here one byte:
    // none).
    var first = BinaryWriter(magic: "NSC1")
    StoredArticle(article: Self.article, seenAt: Date(timeIntervalSince1970: 9)).write(to: &first)
    let old = Array(first.bytes.dropLast())
    var reader = try #require(BinaryReader(old, magic: "NSC1"))
    let read = try StoredArticle.read(from: &reader, categorized: false)
    #expect(read.article == Self.article && reader.isAtEnd)
    var skipping = try #require(BinaryReader(old, magic: "NSC1"))
    try StoredArticle.skip(in: &skipping, categorized: false)
    #expect(skipping.isAtEnd)
  }

  @Test("a cache entry: its header, its items (id, source, the pack's layout), its trailer")
  func cacheEntry() throws {
    let item = try #require(
      FeedItem(feed: "a", title: "T", description: nil, imageURL: nil, url: "https://e/1"))
    var writer = BinaryWriter(magic: FeedCacheEntry.magic)
    writer.trace = []
    FeedItemPack.write(item, to: &writer)
    #expect(writer.trace == FeedItemPack.itemLayout.fields)
    var reader = try #require(BinaryReader(writer.bytes, magic: FeedCacheEntry.magic))
    reader.trace = []
    _ = try FeedItemPack.readItem(id: item.id, source: "a", from: &reader)
    #expect(reader.trace == FeedItemPack.itemLayout.fields)
    let entry = FeedCacheEntry(
      url: "https://e/feed", items: [item], fetchedAt: Date(timeIntervalSince1970: 5),
      etag: nil, lastModified: "Mon", kept: true)
    let bytes = try entry.encoded()
    var whole = try #require(BinaryReader(bytes, magic: FeedCacheEntry.magic))
    try whole.skip(FeedCacheEntry.header.fields)
    #expect(try whole.integer() == 1)
    try whole.skip(FeedCacheEntry.itemPrefix + FeedItemPack.itemLayout.fields)
    try whole.skip(FeedCacheEntry.trailer)
    #expect(whole.isAtEnd)
  }

  @Test("the manifest: its header, then its providers' segments as their layout says")
  func manifest() throws {
    var manifest = SegmentManifest()
    manifest.next = 2
    manifest.providers["blog"] = [
      SegmentInfo(number: 1, count: 3, oldestSeen: 4, chunks: 0, buckets: 1),
      SegmentInfo(
        number: 2, count: 1, oldestSeen: 5, chunks: 0, buckets: 0, newestPublished: 6,
        summary: SegmentSummary(earliest: 5, latest: 6, providers: ["blog"], publishers: nil),
        pack: SegmentPlace(
          pack: 7, place: SealedBundle.Place(index: 1, count: 3, offset: 40, length: 90))),
    ]
    let bytes = try manifest.encoded()
    var reader = try #require(BinaryReader(bytes, magic: SegmentManifest.magic))
    try reader.skip(SegmentManifest.header.fields)
    #expect(try reader.integer() == 1)
    #expect(try reader.string() == "blog")
    #expect(try reader.integer() == 2)
    // The first without a summary: two empty lists; in no pack.
    try reader.skip(SegmentManifest.segmentLayout)
    try reader.skip(SegmentManifest.summaryNames + SegmentManifest.summaryNames)
    try reader.skip(SegmentManifest.packLayout)
    // The second: a provider listed, no publishers; in pack 7, its second record.
    try reader.skip(SegmentManifest.segmentLayout)
    try reader.skip(SegmentManifest.summaryNames + [.string] + SegmentManifest.summaryNames)
    #expect(try reader.bool() == true)
    #expect(try (0..<5).map { _ in try reader.integer() } == [7, 1, 3, 40, 90])
    #expect(reader.isAtEnd)
    #expect(try SegmentManifest.decode(bytes) == manifest)
  }

  @Test("a manifest of before summaries reads, its segments without any")
  func firstManifest() throws {
    var writer = BinaryWriter(magic: SegmentManifest.firstMagic)
    // Version 1, next 4, no generation, none retired; one provider of one segment.
    writer.integer(1)
    writer.integer(4)
    writer.bool(false)
    writer.integer(0)
    writer.bool(false)
    writer.integer(0)
    writer.integer(1)
    writer.string("blog")
    writer.integer(1)
    for value in [3, 2] { writer.integer(value) }
    writer.double(7)
    for value in [0, 0] { writer.integer(value) }
    writer.bool(true)
    writer.double(8)
    let manifest = try SegmentManifest.decode(writer.checked())
    #expect(manifest.next == 4)
    #expect(
      manifest.providers["blog"] == [
        SegmentInfo(
          number: 3, count: 2, oldestSeen: 7, chunks: 0, buckets: 0, newestPublished: 8)
      ])
  }

  @Test(
    "a string read as the same as the one before is that string, its bytes shared; others read as they are"
  )
  func sameString() throws {
    let name = "a source named past fifteen bytes"
    var writer = BinaryWriter(magic: "TEST")
    for text in [name, name, "another source", "", "", name] { writer.string(text) }
    var bytes = writer.bytes
    bytes += [3, 0x61, 0xFF, 0x62]  // a string that is not UTF-8
    bytes += [9, 0x61]  // a string past the end
    var reader = try #require(BinaryReader(bytes, magic: "TEST"))
    var previous: String?
    var read: [String] = []
    for _ in 0..<6 {
      let text = try reader.string(sameAs: previous)
      read.append(text)
      previous = text
    }
    #expect(read == [name, name, "another source", "", "", name])
    // The second is the first, not a copy of it.
    var (first, second) = (read[0], read[1])
    let shared = first.withUTF8 { one in second.withUTF8 { $0.baseAddress == one.baseAddress } }
    #expect(shared)
    #expect(throws: BinaryReader.Malformed.self) { try reader.string(sameAs: "a\u{FFFD}b") }
    #expect(throws: BinaryReader.Malformed.self) { try reader.string(sameAs: name) }
  }

  @Test("what the format cannot hold is refused, never written as something else")
  func refusals() {
    var negative = BinaryWriter(magic: "TEST")
    negative.integer(-3)
    #expect(throws: BinaryReader.Malformed.self) { try negative.checked() }
    var notANumber = BinaryWriter(magic: "TEST")
    notANumber.double(.nan)
    #expect(throws: BinaryReader.Malformed.self) { try notANumber.checked() }
    var manifest = SegmentManifest()
    manifest.providers["blog"] = [
      SegmentInfo(number: 1, count: 3, oldestSeen: .infinity, chunks: 0, buckets: 1)
    ]
    #expect(throws: BinaryReader.Malformed.self) { try manifest.encoded() }
    // An optional string and a string are two kinds: not the same bytes.
    var plain = BinaryWriter(magic: "TEST")
    plain.string("x")
    var optional = BinaryWriter(magic: "TEST")
    optional.optionalString("x")
    #expect(plain.bytes != optional.bytes)
  }
}
