import FeedParsing
import Foundation
import NewsCore
import TestSupport
import Testing

/// What the audit found the store and the lists still did wrong (#31): a listings index deleted,
/// a damaged key check, a feed of which every source failed, a runaway ignore pattern, a damaged
/// last list — each costs only itself, and is said.
@Suite("Store recovery: one file, one failure, costs only itself")
struct StoreRecoveryTests {
  let harness: Harness

  init() throws {
    harness = try Harness()
    harness.server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    harness.server.route(prefix: "/info/likes/") { _ in .json(#"{"likes": 1}"#) }
    harness.server.route(prefix: "/info/comments/") { _ in .json(#"{"comments": 2}"#) }
  }

  func path(_ name: String) -> URL { URL(fileURLWithPath: harness.home.path("news/\(name).enc")) }

  func damage(_ name: String) throws {
    try flipMiddleByte(of: path(name))
  }

  @Test("a deleted listings index: doctor names it, lists rebuild it, repair rebuilds it")
  func deletedListingIndex() async throws {
    #expect(await harness.run(["headlines"]).code == .success)
    try FileManager.default.removeItem(at: path("listings"))
    let doctor = await harness.run(["doctor"])
    #expect(doctor.code == .ioError)
    #expect(doctor.out.contains("missing while listing files remain"), "\(doctor.out)")
    let repaired = await harness.run(["doctor", "--repair"])
    #expect(repaired.code == .success, "\(repaired.out)")
    #expect(repaired.out.contains("rebuilt"), "\(repaired.out)")
    // Missing, so nothing to remove: only the rebuild is said.
    #expect(!repaired.out.contains("removed"), "\(repaired.out)")
    // Deleted again: an offline list finds its listing all the same.
    try FileManager.default.removeItem(at: path("listings"))
    let offline = await harness.run(["headlines", "--offline"])
    #expect(offline.code == .success, "\(offline.err)")
    #expect(offline.out.contains(" 1. "))
    #expect(await harness.run(["doctor"]).code == .success)
  }

  @Test("a damaged key check costs only itself: commands go on, repair writes it again")
  func damagedKeyCheck() async throws {
    #expect(await harness.run(["headlines"]).code == .success)
    try damage("keycheck")
    let offline = await harness.run(["headlines", "--offline"])
    #expect(offline.code == .success, "\(offline.err)")
    let doctor = await harness.run(["doctor"])
    #expect(doctor.code == .ioError)
    #expect(doctor.out.contains("keycheck"))
    let repaired = await harness.run(["doctor", "--repair"])
    #expect(repaired.code == .success, "\(repaired.out)")
    #expect(repaired.out.contains("keycheck.enc again"), "\(repaired.out)")
    // A wrong key is still told as one.
    let wrong = await harness.run(
      ["headlines", "--offline"],
      environment: ["NEWS_STORE_KEY": Data(repeating: 9, count: 32).base64EncodedString()])
    #expect(wrong.code == .ioError)
    #expect(wrong.err.contains("the store key does not open"), "\(wrong.err)")
  }

  @Test("a feed in which every source fails keeps the last list as it was")
  func everySourceFailedKeepsLastList() async throws {
    #expect(await harness.run(["headlines"]).code == .success)
    let before = await harness.run(["show", "1", "--json"])
    #expect(before.code == .success, "\(before.err)")
    for name in ["a", "b", "c"] {
      harness.server.route("/feed/\(name).json", .json("", status: 500))
    }
    harness.server.route("/articles", .json("", status: 500))
    harness.server.route("/bbc.json", .json("", status: 500))
    let feed = await harness.run(["feed"], environment: ["NEWS_RETRY_DELAY": "0"])
    #expect(feed.code != .success)
    let after = await harness.run(["show", "1", "--json"])
    #expect(after.code == .success, "\(after.err)")
    #expect(
      try after.json()["title"] as? String == (try before.json()["title"] as? String),
      "show 1 still names the first headline")
  }

  @Test("a runaway ignore pattern is stopped and skipped, with a warning naming it")
  func runawayIgnorePattern() async throws {
    let title = String(repeating: "a", count: 40) + "b"
    harness.server.route(
      "/r.xml",
      .json(
        "<rss version=\"2.0\"><channel><title>R</title><item><title>\(title)</title>"
          + "<link>https://x.example/1</link></item></channel></rss>"))
    let config = try harness.home.write(
      "config.json",
      #"{"sources": [{"name": "r", "url": "\#(harness.server.baseURL.absoluteString)/r.xml"}]}"#)
    let added = await harness.run(
      ["ignore", "add", "(a+)+$", "--regex"], environment: ["NEWS_CONFIG": config])
    #expect(added.code == .success, "\(added.err)")
    let feed = await harness.run(["feed", "--source", "r"], environment: ["NEWS_CONFIG": config])
    #expect(feed.code == .success, "\(feed.err)")
    #expect(feed.err.contains("ignore rule title:/(a+)+$/ took over 0.1 s"), "\(feed.err)")
    #expect(feed.out.contains("aaaa"), "the item is shown: the rule was skipped")
  }

  @Test("a damaged last list is replaced by the next list, with a warning naming it")
  func damagedLastListing() async throws {
    #expect(await harness.run(["headlines"]).code == .success)
    try damage("last-listing")
    let again = await harness.run(["headlines", "--offline"])
    #expect(again.code == .success, "\(again.err)")
    #expect(again.err.contains("last-listing.enc was damaged and is replaced"), "\(again.err)")
    #expect(await harness.run(["show", "1"]).code == .success)
  }
}
