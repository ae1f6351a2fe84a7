import Foundation
import Testing

@testable import NewsCLI
@testable import NewsCore

@Suite("news feed --json written a source at a time")
struct FeedRendererTests {
  func report(_ name: String, _ titles: [String], status: FeedSourceStatus = .fresh)
    -> FeedSourceReport
  {
    FeedSourceReport(
      name: name, url: URL(string: "https://\(name).example/feed")!, status: status,
      fetchedAt: Date(timeIntervalSince1970: 1_000_000), expiresAt: nil,
      error: status == .failed ? "source \(name): failed" : nil,
      items: titles.compactMap {
        FeedItem(
          feed: name, title: $0, description: "about \"\($0)\"", imageURL: nil,
          url: "https://\(name).example/\($0)")
      }, attempts: 1, newItems: 0)
  }

  @Test(
    "the pieces make the document the whole tree makes, byte for byte",
    arguments: [
      [[], []], [["one"]], [["one", "two"], [], ["three"]], [[], ["one", "two"]],
    ] as [[[String]]])
  func sameDocument(titles: [[String]]) {
    let reports =
      zip(["a", "b", "c"], titles).map { report($0, $1) } + [
        report("d", [], status: .failed)
      ]
    let read: Set<String> = ["a.example-one"]
    let ignored: Set<String> = ["b.example-two"]
    var pieces: [String] = []
    FeedRenderer.json(reports, sources: reports, read: read, ignored: ignored) {
      pieces.append($0)
    }
    let tree = JSONValue.object([
      ("schemaVersion", .int(ArticleJSON.schemaVersion)),
      (
        "items",
        .array(
          reports.flatMap(\.items).map {
            FeedRenderer.item($0, read: read.contains($0.id), ignored: ignored.contains($0.id))
          })
      ),
      (
        "sources",
        .array(
          reports.map {
            .object([
              ("name", .string($0.name)), ("url", .string($0.url.absoluteString)),
              ("status", .string($0.status.rawValue)), ("fetchedAt", .date($0.fetchedAt)),
              ("expiresAt", .date($0.expiresAt)), ("error", .string($0.error)),
            ])
          })
      ),
    ])
    #expect(pieces.joined() == tree.serialized(pretty: true) + "\n")
    // One piece a source and one to close: never the whole document in one string.
    #expect(pieces.count == reports.count + 1)
  }

  @Test(
    "an item's number is right-aligned in three columns, wider when it must be",
    arguments: [
      (1, "  1. "), (9, "  9. "), (10, " 10. "), (99, " 99. "), (100, "100. "), (12_345, "12345. "),
    ])
  func label(number: Int, shown: String) {
    var text = "x"
    FeedRenderer.appendLabel(number, to: &text)
    #expect(text == "x" + shown)
  }

  @Test("a list in text shows what the items' packs hold, their bodies left out")
  func listedReports() {
    var item = FeedItem(
      feed: "a", title: "A title long enough to wrap onto a second line of the list",
      description: "about it",
      imageURL: "https://a.example/i.png", url: "https://a.example/1")!
    item.content = "<p>body</p>"
    item.categories = ["World"]
    var short = FeedItem(feed: "a", title: "Short", description: nil, imageURL: nil, url: nil)!
    short.categories = ["Sport"]
    let result = FeedListResult(
      sourceReports: [report("a", [])], packs: [FeedItemPack([item, short])],
      alsoIn: [item.id: ["b"]], enclosures: [:], read: [short.id], unread: [:], cutByLimit: [],
      warnings: [], marks: ReadMarks())
    let listed = Array(result.listedReports)
    #expect(listed.count == 1)
    #expect(listed[0].items.map(\.content) == [nil, nil])
    #expect(listed[0].items.map(\.categories) == [[], []])
    #expect(listed[0].items.map(\.alsoIn) == [["b"], []])
    #expect(Array(result.reports)[0].items.map(\.content) == ["<p>body</p>", nil])
    let renderer = FeedRenderer(
      style: Style(enabled: false), width: 40, now: Date(timeIntervalSince1970: 1_000_000),
      read: result.read)
    let text = renderer.text(listed)
    let expected = [
      "  1. A title long enough to wrap onto a", "     second line of the list", "     about it",
      "     also in b", "     https://a.example/1", "     https://a.example/i.png", "  2. Short",
    ]
    #expect(text.hasSuffix(expected.joined(separator: "\n") + "\n"), "\(text)")
  }

  @Test("the built-in sources' letters are capitals; a feed's one-letter name stays as given")
  func sourceNames() {
    let renderer = FeedRenderer(
      style: Style(enabled: false), width: 80, now: Date(timeIntervalSince1970: 1_000_000))
    let text = renderer.text([report("a", ["one"]), report("x", ["two"])])
    #expect(text.contains("\nSource A (fresh)\n"), "\(text)")
    #expect(text.contains("\nSource x (fresh)\n"), "\(text)")
  }
}
