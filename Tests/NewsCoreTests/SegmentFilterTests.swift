import Foundation
import Testing

@testable import NewsCore

/// A small segment's filter (#58.2): a search at ten thousand sources asks it before opening a
/// segment. It may only narrow: every run an index word holds passes it.
@Suite("segment filters")
struct SegmentFilterTests {
  /// Random lower-case words: what the index holds of them is the words themselves.
  func words(_ count: Int, length: ClosedRange<Int>, using random: inout SeededGenerator)
    -> [String]
  {
    (0..<count).map { _ in
      String(
        (0..<Int.random(in: length, using: &random)).map { _ in
          Character(Unicode.Scalar(UInt8.random(in: 0x61...0x7A, using: &random)))
        })
    }
  }

  /// The filter of a small segment of `titles`, each an article by `author`.
  func filter(titles: [String], author: String? = nil) throws -> SegmentFilter {
    let records = titles.enumerated().map { index, title in
      StoredArticle(
        article: Article(id: "id-\(index)", provider: "p", title: title, author: author),
        seenAt: Date(timeIntervalSince1970: 0))
    }
    let built = SegmentBuilder.build(number: 0, records: records)
    let main = try #require(built.files.first?.bytes)
    return try #require(SegmentFilter(main: main))
  }

  func run(_ text: String, _ field: IndexRun.Field = .text) -> IndexRun {
    IndexRun(bytes: Array(text.utf8), field: field)
  }

  @Test(
    "every run of every index word passes, of any length, and short runs always do",
    arguments: [1, 2, 3])
  func neverTurnsAwayAMatch(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let vocabulary = words(300, length: 1...12, using: &random)
    let titles = (0..<40).map { _ in
      (0..<8).map { _ in vocabulary.randomElement(using: &random)! }.joined(separator: " ")
    }
    let filter = try filter(titles: titles)
    let held = Set(titles.flatMap { $0.split(separator: " ") })
    for word in held {
      let bytes = Array(word.utf8)
      for start in bytes.indices {
        for end in (start + 1)...bytes.count {
          #expect(filter.mayHold(IndexRun(bytes: Array(bytes[start..<end]))), "\(word)")
        }
      }
    }
    #expect(filter.mayHold(run("zq")) && filter.mayHold(run("")))
  }

  @Test("words the segment does not hold are turned away, all but about one in a hundred")
  func turnsAwayTheRest() throws {
    var random = SeededGenerator(seed: 9)
    let vocabulary = words(400, length: 4...10, using: &random)
    let filter = try filter(
      titles: stride(from: 0, to: 400, by: 10).map {
        vocabulary[$0..<($0 + 10)].joined(separator: " ")
      })
    let absent = words(2000, length: 5...8, using: &random).filter { word in
      !vocabulary.contains { $0.contains(word) }
    }
    let passed = absent.filter { filter.mayHold(run($0)) }.count
    #expect(absent.count > 1900)
    #expect(passed * 100 <= absent.count, "\(passed) of \(absent.count)")
  }

  @Test("an author's words pass as the author's, not as text; branches as the index reads them")
  func fieldsAndBranches() throws {
    let filter = try filter(titles: ["harbour weather"], author: "Ann Lindqvist")
    #expect(filter.mayHold(run("lindqvist", .author)))
    #expect(!filter.mayHold(run("lindqvist")))
    #expect(!filter.mayHold(run("harbour", .author)))
    #expect(filter.mayHold(any: []))
    #expect(filter.mayHold(any: [[run("zanzibar")], [run("harbour"), run("weather")]]))
    #expect(!filter.mayHold(any: [[run("zanzibar")], [run("harbour"), run("tornado")]]))
  }

  @Test("a filter is stored as its bytes; what is not a small segment's main file has none")
  func stored() throws {
    let filter = try filter(titles: ["harbour weather"])
    #expect(SegmentFilter(bytes: filter.bytes[...]) == filter)
    #expect(SegmentFilter(indexWords: [Array("weather".utf8), Array("harbour".utf8)]) == filter)
    #expect(SegmentFilter(bytes: []) == nil)
    #expect(SegmentFilter(bytes: filter.bytes.dropLast()) == nil)
    #expect(SegmentFilter(main: Array("NSG9 not a segment".utf8)) == nil)
    // A segment written before authors and categories were indexed: `author:` cannot narrow
    // there, so no filter may turn it away.
    let one = [
      StoredArticle(
        article: Article(id: "1", provider: "p", title: "harbour", author: "Ann Lee"),
        seenAt: Date(timeIntervalSince1970: 0))
    ]
    let current = try #require(SegmentBuilder.build(number: 0, records: one).files.first?.bytes)
    #expect(SegmentFilter(main: current) != nil)
    #expect(SegmentFilter(main: Array("NSG3".utf8) + current.dropFirst(4)) == nil)
    // A segment split in chunks has its own files, never a pack.
    let records = (0..<300).map {
      StoredArticle(
        article: Article(id: "id-\($0)", provider: "p", title: "story"),
        seenAt: Date(timeIntervalSince1970: 0))
    }
    let main = try #require(SegmentBuilder.build(number: 0, records: records).files.first?.bytes)
    #expect(SegmentFilter(main: main) == nil)
    let record = SegmentPack.filters([filter, nil])
    #expect(try SegmentPack.filters(inRecord: record, count: 2) == [filter, nil])
    #expect(throws: BinaryReader.Malformed.self) {
      try SegmentPack.filters(inRecord: record, count: 3)
    }
    #expect(throws: BinaryReader.Malformed.self) {
      try SegmentPack.filters(inRecord: record + [0], count: 2)
    }
  }
}
