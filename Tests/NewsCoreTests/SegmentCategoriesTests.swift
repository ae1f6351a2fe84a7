import Foundation
import TestSupport
import Testing

@testable import NewsCore

/// Item categories are kept in the store's records (`NSC2`, `NSG3` and after); segments written before
/// (`NSC1`, `NSG1`) still read, without categories.
@Suite("the store keeps items' categories, and reads segments written before it did")
struct SegmentCategoriesTests {
  let directory = TemporaryDirectory()

  var store: EncryptedStore {
    EncryptedStore.testing(in: directory.url.appendingPathComponent("data"), key: 7)
  }

  static func records(_ count: Int, categories: [String] = []) -> [StoredArticle] {
    (0..<count).map { index in
      var article = Article(
        id: "blog-\(index)", provider: "blog", title: "Post \(index) on climate",
        url: "https://blog.example/\(index)",
        publishedAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)))
      article.categories = categories
      return StoredArticle(article: article, seenAt: Date(timeIntervalSince1970: 1_700_000_000))
    }
  }

  /// `records` as they were written before categories: each without its last field (none: a
  /// single byte).
  static func firstLayout(_ records: ArraySlice<StoredArticle>) -> [UInt8] {
    records.flatMap { record -> [UInt8] in
      var writer = BinaryWriter(magic: "")
      record.write(to: &writer)
      return Array(writer.bytes.dropLast())
    }
  }

  @Test("a segment of one file and a split one keep each record's categories")
  func kept() throws {
    for count in [3, SegmentBuilder.chunkSize + 5] {
      let records = Self.records(count, categories: ["Climate", "Energy"])
      let (info, files) = SegmentBuilder.build(number: count, records: records)
      for file in files { try store.write(bytes: file.bytes, name: file.name) }
      let read = try SegmentReader(info, in: store).records().map(\.record.article)
      #expect(read == records.map(\.article))
      #expect(read.allSatisfy { $0.categories == ["Climate", "Energy"] })
    }
  }

  @Test("a segment of one file written before categories reads, without them")
  func oneFileOfBefore() throws {
    let records = Self.records(3)
    let (info, files) = SegmentBuilder.build(number: 1, records: records)
    #expect(info.chunks == 0)
    let main = files[0].bytes
    #expect(main.starts(with: Array(SegmentBuilder.mainMagic.utf8)))
    var inline = BinaryWriter(magic: "")
    for record in records { record.write(to: &inline) }
    #expect(Array(main.suffix(inline.bytes.count)) == inline.bytes)
    let before =
      Array("NSG1".utf8) + main[4..<(main.count - inline.bytes.count)]
      + Self.firstLayout(records[...])
    try store.write(bytes: before, name: info.mainName)
    let read = try SegmentReader(info, in: store).records().map(\.record.article)
    #expect(read == records.map(\.article))
    // Its words still narrow a search.
    let holding = try SegmentReader(info, in: store).records(holdingAll: [
      IndexRun(bytes: Array("climat".utf8))
    ])
    #expect(holding == [0, 1, 2])
  }

  @Test("a split segment whose chunks were written before categories reads, without them")
  func chunksOfBefore() throws {
    let size = SegmentBuilder.chunkSize
    let records = Self.records(size + 5)
    let (info, files) = SegmentBuilder.build(number: 2, records: records)
    #expect(info.chunks == 2)
    for file in files { try store.write(bytes: file.bytes, name: file.name) }
    // The second chunk as an earlier version wrote it; the first as this one does.
    var chunk = BinaryWriter(magic: "NSC1")
    chunk.integer(5)
    chunk.raw(Self.firstLayout(records[size...])[...])
    try store.write(bytes: chunk.bytes, name: info.chunkName(1))
    let read = try SegmentReader(info, in: store).records().map(\.record.article)
    #expect(read == records.map(\.article))
    #expect(try SegmentReader(info, in: store).records([size + 4]).map(\.number) == [size + 4])
  }
}
