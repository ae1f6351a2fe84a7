import Foundation
import TestSupport
import Testing

@testable import NewsCore

/// Segment files kept decrypted between pages (`news serve`): read once, then from memory, the
/// least recently read let go first when over the budget.
@Suite("Segment files kept")
struct SegmentFilesTests {
  /// A file of `size` bytes, and how often it was read from "disk".
  final class Disk: @unchecked Sendable {
    var reads: [String: Int] = [:]
    func read(_ name: String, size: Int) -> () throws -> [UInt8] {
      { [self] in
        reads[name, default: 0] += 1
        return [UInt8](repeating: UInt8(size % 256), count: size)
      }
    }
  }

  @Test("a file is read once, then kept; the least recently read goes first past the budget")
  func leastRecentlyReadGoesFirst() throws {
    let files = SegmentFiles(budget: 300, parts: 1)
    let disk = Disk()
    #expect(try files.bytes("a", read: disk.read("a", size: 100)).count == 100)
    #expect(try files.bytes("b", read: disk.read("b", size: 100)).count == 100)
    #expect(try files.bytes("a", read: disk.read("a", size: 100)).count == 100)
    #expect(disk.reads == ["a": 1, "b": 1])
    #expect(files.size == 200)
    // Over the budget: b, read least recently, goes; a stays.
    _ = try files.bytes("c", read: disk.read("c", size: 150))
    #expect(files.size == 250)
    _ = try files.bytes("a", read: disk.read("a", size: 100))
    _ = try files.bytes("b", read: disk.read("b", size: 100))
    #expect(disk.reads == ["a": 1, "b": 2, "c": 1])
  }

  @Test("a file larger than the budget is read every time, and a failed read keeps nothing")
  func largerThanBudget() throws {
    let files = SegmentFiles(budget: 50, parts: 1)
    let disk = Disk()
    _ = try files.bytes("big", read: disk.read("big", size: 51))
    _ = try files.bytes("big", read: disk.read("big", size: 51))
    #expect(disk.reads["big"] == 2)
    #expect(files.size == 0)
    struct Unreadable: Error {}
    #expect(throws: Unreadable.self) { try files.bytes("bad") { throw Unreadable() } }
    #expect(files.size == 0)
  }

  @Test("a page's articles read again come from the files kept, not the disk")
  func pagesReadFromKeptFiles() throws {
    let directory = TemporaryDirectory()
    let clock = TestDate()
    let store = ArticleStore.testing(
      in: directory.url, retention: .everything, now: { clock.now })
    let stored = (0..<600).map {
      Article(
        id: "feed-\($0)", provider: "feed", title: "Story \($0)", description: "About \($0)",
        url: "https://example.com/\($0)", publishedAt: Date(timeIntervalSince1970: Double($0)))
    }
    try store.keep(stored, provider: "feed")
    let heads = try store.allArticleHeads().map(\.head)
    let page = heads.filter { ["feed-1", "feed-300", "feed-599"].contains($0.id) }
    let files = SegmentFiles()
    let first = try store.articles(of: page, files: files)
    #expect(first.count == 3 && first["feed-300"] == stored[300])
    #expect(files.size > 0)
    // Its files are gone from the disk: the kept ones still give the page.
    for name in store.store.names() where name.hasPrefix("seg-") {
      try FileManager.default.removeItem(at: store.store.url(for: name))
    }
    #expect(try store.articles(of: page, files: files) == first)
    #expect(try store.articles(of: page).isEmpty)
  }
}
