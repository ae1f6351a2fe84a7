import FeedParsing
import Foundation
import NewsCore
import TestSupport
import Testing

/// A Fever account against Coldsweat, a real Fever API server, on 127.0.0.1: it fetches the
/// feeds the test serves on loopback. Skipped, saying why on standard output, when Coldsweat is
/// not installed (`.ci/run` installs it).
@Suite("accounts: the Fever API against Coldsweat")
struct ColdsweatAccountTests {
  static let available: Bool = {
    if let reason = ColdsweatServer.unavailableReason {
      print("skipped: the Coldsweat tests: \(reason)")
      return false
    }
    return true
  }()

  static func atom(_ base: URL, entries: ClosedRange<Int>) -> String {
    let items = entries.map { number in
      """
      <entry><title>Story \(number)</title><id>urn:story:\(number)</id>
      <link href="https://site.example/story/\(number)"/>
      <updated>2026-11-2\(number % 10)T10:00:00Z</updated><author><name>Ann</name></author>
      <content type="html">&lt;p&gt;Body of story \(number)&lt;/p&gt;</content></entry>
      """
    }
    return """
      <?xml version="1.0" encoding="utf-8"?>
      <feed xmlns="http://www.w3.org/2005/Atom"><title>Loop News</title>
      <id>urn:loop</id><updated>2026-11-23T10:00:00Z</updated>
      <icon>\(base.absoluteString)/loop/icon.png</icon>
      <link href="\(base.absoluteString)/loop/"/>
      \(items.joined(separator: "\n"))
      </feed>
      """
  }

  @Test(
    "subscriptions, items, read and saved state round-trip; marks are queued and sent once",
    .enabled(if: available, "Coldsweat is not installed"))
  func roundTrip() async throws {
    let harness = try Harness()
    let base = harness.server.baseURL
    let document = Self.atom(base, entries: 1...3)
    harness.server.route("/loop/feed.xml") { _ in
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "application/atom+xml"],
        body: Data(document.utf8))
    }
    // Coldsweat fetches the feed's icon (and fails on an answer without a Content-Type).
    harness.server.route(
      "/loop/icon.png",
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "image/png"], body: Data([0x89, 0x50, 0x4E, 0x47])))
    let opml = """
      <?xml version="1.0"?><opml version="1.0"><head><title>s</title></head><body>
      <outline text="Tech" title="Tech"><outline type="rss" text="Loop News" title="Loop News"
        xmlUrl="\(base.absoluteString)/loop/feed.xml"/></outline></body></opml>
      """
    let server = try ColdsweatServer(
      email: "ann@example.com", password: "password-of-ann", opml: opml)
    let environment: [String: String?] = ["FEVER_PASSWORD": "password-of-ann"]

    // A wrong password: refused, exit 77, nothing kept.
    let refused = await harness.run(
      [
        "accounts", "add", "cs", "--fever", server.url.absoluteString, "--user",
        "ann@example.com", "--password-env", "FEVER_PASSWORD",
      ], environment: ["FEVER_PASSWORD": "not-the-password"])
    #expect(refused.code == .permissionDenied, "\(refused.err)")

    let added = await harness.run(
      [
        "accounts", "add", "cs", "--fever", server.url.absoluteString, "--user",
        "ann@example.com", "--password-env", "FEVER_PASSWORD",
      ], environment: environment)
    #expect(added.code == .success, "\(added.err)")
    #expect(added.out.contains("added: cs (fever, 1 feed)"))
    #expect(await harness.run(["accounts", "test", "cs"]).code == .success)

    // First sync: the subscription is a source, its folder a tag, its items stored.
    let first = await harness.run(["sync", "--account", "cs", "--json"])
    #expect(first.code == .success, "\(first.err)")
    let report = try #require(try first.json()["sources"] as? [[String: Any]])
    #expect(report.first?["new"] as? Int == 3)
    let sources = try #require(
      try await harness.run(["sources", "--json"]).json()["sources"] as? [[String: Any]])
    let loop = try #require(sources.first { $0["name"] as? String == "cs/loop-news" })
    #expect(loop["tags"] as? [String] == ["tech"])
    let feed = await harness.run(["feed", "--source", "cs/loop-news", "--json"])
    let items = try #require(try feed.json()["items"] as? [[String: Any]])
    #expect(Set(items.compactMap { $0["title"] as? String }) == ["Story 1", "Story 2", "Story 3"])
    let story1 = try #require(items.first { $0["title"] as? String == "Story 1" }?["id"] as? String)

    // A mark made with news reaches the server with the next sync, once.
    let serverIDs = try #require(try server.call("items")["items"] as? [[String: Any]])
    let id1 = try #require(
      serverIDs.first { $0["title"] as? String == "Story 1" }.flatMap { "\($0["id"]!)" })
    let id2 = try #require(
      serverIDs.first { $0["title"] as? String == "Story 2" }.flatMap { "\($0["id"]!)" })
    #expect(await harness.run(["read", story1]).code == .success)
    #expect(await harness.run(["bookmark", story1]).code == .success)
    #expect(try server.ids("unread_item_ids").contains(id1), "not sent before a sync")
    #expect(await harness.run(["sync", "--account", "cs"]).code == .success)
    #expect(try !server.ids("unread_item_ids").contains(id1))
    #expect(try server.ids("saved_item_ids") == [id1])
    let listed = try await harness.run(["accounts", "--json"]).json()
    #expect((listed["accounts"] as? [[String: Any]])?.first?["pendingMarks"] as? Int == 0)

    // A mark made through the server's API is seen here after news sync.
    _ = try server.call("", form: "mark=item&as=read&id=\(id2)")
    _ = try server.call("", form: "mark=item&as=unsaved&id=\(id1)")
    #expect(await harness.run(["sync", "--account", "cs"]).code == .success)
    let unread = await harness.run(["feed", "--unread", "--source", "cs/loop-news", "--json"])
    let left = try #require(try unread.json()["items"] as? [[String: Any]])
    #expect(left.compactMap { $0["title"] as? String } == ["Story 3"])
    let bookmarks = await harness.run(["bookmarks", "--json"])
    #expect(!bookmarks.out.contains("Story 1"))

    // A whole feed read here is one `mark=feed` with `before` on the server.
    let now = Date(timeIntervalSince1970: 1_900_000_000)
    let all = await harness.run(["read", "--all", "--source", "cs/loop-news"], now: now)
    #expect(all.code == .success, "\(all.err)")
    #expect(await harness.run(["sync", "--account", "cs"], now: now).code == .success)
    #expect(try server.ids("unread_item_ids").isEmpty, "Story 3 read through mark=feed")

    // Incremental: a new feed subscribed on the server (from another device) brings its one
    // item; only what is past since_id is asked for.
    harness.server.route("/loop/more.xml") { _ in
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "application/atom+xml"],
        body: Data(
          Self.atom(base, entries: 4...4).replacingOccurrences(of: "Loop News", with: "More").utf8))
    }
    try server.subscribe(
      """
      <?xml version="1.0"?><opml version="1.0"><head><title>s</title></head><body>
      <outline type="rss" text="More" title="More" xmlUrl="\(base.absoluteString)/loop/more.xml"/>
      </body></opml>
      """)
    let next = await harness.run(["sync", "--account", "cs", "--json"])
    let nextReport = try #require(try next.json()["sources"] as? [[String: Any]])
    #expect(nextReport.first?["new"] as? Int == 1)
    // Its total is what the account holds here: the three of before and the new one.
    #expect(nextReport.first?["total"] as? Int == 4)
    let more = await harness.run(["feed", "--source", "cs/more", "--json"])
    let moreItems = try #require(try more.json()["items"] as? [[String: Any]])
    #expect(moreItems.compactMap { $0["title"] as? String } == ["Story 4"])
  }
}
