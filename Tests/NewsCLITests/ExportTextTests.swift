import Foundation
import Testing

@testable import NewsCLI
@testable import NewsCore

/// What `news sources export` says of the sources OPML cannot carry.
@Suite("sources export: what it leaves out, and why")
struct ExportTextTests {
  static func source(_ name: String, _ adapter: any FeedAdapter) -> FeedSource {
    FeedSource(
      name: name, url: URL(string: "https://e.example/\(name)")!, ttl: .seconds(900),
      adapter: adapter)
  }

  @Test(
    "each kind that no other reader can read is named with why; a feed goes out unsaid",
    arguments: [
      ("search", "search (a saved search)"), ("exec", "exec (a command's output)"),
      ("account", "account (its server gives no feed address)"),
      ("page", "page (read by selectors or a mapping, which other readers do not have)"),
    ])
  func leftOut(kind: String, said: String) {
    var source = Self.source(kind, kind == "page" ? StoriesAdapter() : SyndicationAdapter())
    switch kind {
    case "search":
      source.adapter = SavedSearchAdapter()
      source.search = "climate"
    case "exec": source.command = SourceCommand(kind: .exec, command: "true")
    case "account":
      source.adapter = AccountFeedAdapter(isFeedAddress: false)
      source.account = "home"
    default: break
    }
    let feed = Self.source("feed", SyndicationAdapter())
    #expect(ExportText.warnings([feed, source]) == ["left out of the export: \(said)"])
    #expect(ExportText.warnings([feed]).isEmpty)
  }

  @Test("the demo sources are not the reader's own: nothing said of them")
  func demo() {
    let demo = SourceName.builtInFeeds.map { Self.source($0, StoriesAdapter()) }
    #expect(ExportText.warnings(demo).isEmpty)
  }
}
