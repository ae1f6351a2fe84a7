import Foundation
import TestSupport
import Testing

@testable import NewsCore

/// The numbers `news serve` names articles by: one an article, kept, increasing, never reused.
@Suite("Item numbers")
struct ItemNumbersTests {
  let directory = TemporaryDirectory()

  func store() -> ArticleStore {
    ArticleStore.testing(in: directory.url, now: { Date(timeIntervalSince1970: 1_700_000_000) })
  }

  /// What the million's numbering showed.
  struct Million: Sendable {
    var distinctKeys = 0
    var first: (next: Int64, shards: Int) = (0, 0)
    var sampled = false
    var readBack = false
    var unchanged: (next: Int64, shards: Int) = (0, 0)
    var late: [Int64] = []
  }

  @Test("a million articles: a million numbers, the same read back, later ones greater")
  func million() async throws {
    // The numbering alone (the store's files are a cipher around these bytes: at a million
    // they are 16 MB, which the debug build's cipher takes a minute over), on a thread of its
    // own: ten seconds of a debug build's CPU must not hold one of the two threads every other
    // test awaits on.
    let million = await Self.onThread {
      var million = Million()
      let ids = (0..<1_000_000).map { "example.com-story-\($0)" }
      let keys = ids.map(ReadMarks.key)
      million.distinctKeys = Set(keys).count
      var numbering = ItemNumbering(shards: Array(repeating: ItemNumberShard(), count: 64))
      let first = numbering.assign(keys, next: nil, pruning: true)
      million.first = (first.next, first.shards.count)
      // Each its own number, in the order asked (every thousandth looked up).
      let sample = Array(stride(from: 0, to: 1_000_000, by: 1_000)) + [999_999]
      let numbers = numbering.numbers(sample.map { keys[$0] })
      million.sampled = numbers == sample.map { Int64($0 + 1) }
      // Written and read back (a restart), asked again: the same numbers, nothing to write.
      var again = ItemNumbering(
        shards: numbering.shards.compactMap { try? ItemNumberShard($0.encoded) })
      million.readBack = again.shards == numbering.shards
      let unchanged = again.assign(keys, next: first.next, pruning: false)
      million.unchanged = (unchanged.next, unchanged.shards.count)
      // New articles after them: greater numbers; the earlier keep theirs.
      let late = ["late-1", ids[5], "late-2"]
      _ = again.assign(late.map(ReadMarks.key), next: unchanged.next, pruning: false)
      million.late = again.numbers(late.map(ReadMarks.key)) ?? []
      return million
    }
    #expect(million.distinctKeys == 1_000_000, "two ids of a million share a key")
    #expect(million.first == (1_000_001, 64))
    #expect(million.sampled && million.readBack)
    #expect(million.unchanged == (1_000_001, 0))
    #expect(million.late == [1_000_001, 6, 1_000_002])
  }

  /// `body`'s result, computed on a thread of its own.
  static func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
      Thread { continuation.resume(returning: body()) }.start()
    }
  }

  @Test("kept in the store: the same numbers for a new store value on the same files")
  func kept() throws {
    let ids = (0..<2_000).map { "example.com-story-\($0)" }
    let numbers = try store().itemNumbers(for: ids, pruning: true)
    #expect(numbers == Array(1...2_000))
    #expect(try store().itemNumbers(for: ids.reversed()) == numbers.reversed())
    #expect(try store().itemNumbers(for: ["new"]) == [2_001])
  }

  @Test("a file that is not one of item numbers is refused, not read as numbers")
  func malformed() {
    #expect(throws: BinaryReader.Malformed.self) { try ItemNumberShard(Array("NUM1abc".utf8)) }
    #expect(throws: BinaryReader.Malformed.self) { try ItemNumberShard(Array("JSON".utf8)) }
  }

  @Test("pruning forgets the articles gone; one that comes back gets a new number, never an old")
  func pruning() throws {
    let first = try store().itemNumbers(for: ["a", "b", "c"], pruning: true)
    #expect(first == [1, 2, 3])
    let pruned = try store().itemNumbers(for: ["a", "c"], pruning: true)
    #expect(pruned == [1, 3])
    let back = try store().itemNumbers(for: ["b", "d"])
    #expect(back == [4, 5])
  }

  @Test("only the articles without a number are put in order, and numbered in it")
  func newOnesOrdered() throws {
    let first = try store().itemNumbers(for: ["b", "a"], pruning: true)
    #expect(first == [1, 2])
    let asked = ["z", "a", "y", "b", "x"]
    let ordered = Recorder<[Int]>()
    let numbers = try store().itemNumbers(for: asked, pruning: true) { unnumbered in
      ordered.record(unnumbered)
      return unnumbered.sorted { asked[$0] < asked[$1] }
    }
    // `z`, `y` and `x` (places 0, 2, 4) were ordered, and numbered x, y, z; a and b kept theirs.
    #expect(ordered.all == [[0, 2, 4]])
    // In the order asked: z, a, y, b, x.
    #expect(numbers == [5, 2, 4, 1, 3])
    // Every one numbered: nothing to order.
    _ = try store().itemNumbers(for: asked, pruning: true) {
      ordered.record($0)
      return $0
    }
    #expect(ordered.all.count == 1)
  }

  @Test("a crash after the next number was written leaves a gap, never one number twice")
  func gap() throws {
    let store = store()
    _ = try store.itemNumbers(for: ["a"])
    // As if a run wrote the next number (for three more) and died before their files.
    try store.store.write(Int64(5), name: StoreLayout.itemNumbersNext)
    let numbers = try store.itemNumbers(for: ["a", "b"])
    #expect(numbers == [1, 5])
  }
}
