import Foundation
import NewsCore
import TestSupport
import Testing

/// A Tiny Tiny RSS account against the real one (Debian's `tt-rss`, PHP's built-in server,
/// PostgreSQL 15) on 127.0.0.1, set up by `.ci/run`: its feeds and articles seeded in its
/// database as its updater writes them, the sync checked both ways in that database.
@Suite("accounts: Tiny Tiny RSS, the real one")
struct TinyTinyRSSAccountTests {
  static let available: Bool = {
    if let reason = TinyTinyRSSInstance.unavailableReason {
      print("skipped: the Tiny Tiny RSS tests: \(reason)")
      return false
    }
    return true
  }()

  @Test(
    "subscriptions, articles, read and starred state both ways, a feed read, a test round trip",
    .enabled(if: available, "Tiny Tiny RSS is not set up (.ci/run sets it up)"))
  func roundTrip() async throws {
    let harness = try Harness()
    let ttrss = try TinyTinyRSSInstance()
    let tech = try ttrss.category("Tech")
    let news = try ttrss.feed("Loop News", url: "https://news.example/rss", category: tech)
    let blog = try ttrss.feed("A Blog", url: "https://blog.example/atom")
    let first = try ttrss.article(
      feed: news, title: "First story", link: "https://site.example/1", content: "<p>One</p>")
    let second = try ttrss.article(
      feed: news, title: "Second story", link: "https://site.example/2", content: "<p>Two</p>")
    let post = try ttrss.article(
      feed: blog, title: "A post", link: "https://site.example/3", content: "<p>Three</p>")
    try ttrss.enclosure(post, url: "https://cdn.example/3.mp3", type: "audio/mpeg")
    let environment: [String: String?] = ["PW": ttrss.password]
    let add = ["accounts", "add", "tt", "--ttrss", ttrss.url.absoluteString, "--user", ttrss.user]

    let refused = await harness.run(add + ["--password-env", "PW"], environment: ["PW": "nope"])
    #expect(refused.code == .permissionDenied, "\(refused.err)")
    let added = await harness.run(add + ["--password-env", "PW"], environment: environment)
    #expect(added.code == .success, "\(added.err)")
    #expect(added.out.contains("added: tt (ttrss, 2 feeds)"), "\(added.out)")

    let sync = await harness.run(["sync", "--account", "tt", "--json"])
    #expect(sync.code == .success, "\(sync.err)")
    #expect((try sync.json()["sources"] as? [[String: Any]])?.first?["new"] as? Int == 3)
    let sources = try #require(
      try await harness.run(["sources", "--json"]).json()["sources"] as? [[String: Any]])
    // Its files come with it (asked for: include_attachments).
    let blogItems = try await harness.run(["feed", "--source", "tt/a-blog", "--json"]).json()
    let episode = (blogItems["items"] as? [[String: Any]])?.first?["enclosures"] as? [[String: Any]]
    #expect(episode?.first?["url"] as? String == "https://cdn.example/3.mp3")
    #expect(episode?.first?["type"] as? String == "audio/mpeg")
    let loopNews = sources.first { $0["name"] as? String == "tt/loop-news" }
    #expect(loopNews?["tags"] as? [String] == ["tech"])
    #expect(loopNews?["url"] as? String == "https://news.example/rss")
    // A feed it has is said, not asked; one it cannot download is its refusal, said (exit 69).
    let held = await harness.run(["sources", "add", "https://news.example/rss", "--account", "tt"])
    #expect(held.out == "already subscribed: tt/loop-news (https://news.example/rss)\n")
    let refusedFeed = await harness.run([
      "sources", "add", "http://127.0.0.1:9/feed.xml", "--account", "tt",
    ])
    #expect(refusedFeed.code == .unavailable, "\(refusedFeed.err)")
    #expect(
      refusedFeed.err.contains(
        "not subscribed to http://127.0.0.1:9/feed.xml: Tiny Tiny RSS could not download it"),
      "\(refusedFeed.err)")
    func id(_ title: String) async throws -> String {
      let found = try await harness.run(["search", title, "--json"]).json()
      let articles = try #require(found["articles"] as? [[String: Any]])
      return try #require(articles.first { $0["title"] as? String == title }?["id"] as? String)
    }

    // Here → there.
    #expect(await harness.run(["read", try await id("First story")]).code == .success)
    #expect(await harness.run(["bookmark", try await id("A post")]).code == .success)
    #expect(await harness.run(["sync", "--account", "tt"]).code == .success)
    #expect(try ttrss.state(first)?.unread == false)
    #expect(try ttrss.state(post)?.marked == true)

    // There → here.
    try ttrss.set(first, unread: true)
    try ttrss.set(second, unread: false, marked: true)
    #expect(await harness.run(["sync", "--account", "tt"]).code == .success)
    let unread = try await harness.run(["feed", "--unread", "--offline", "--json"]).json()
    let titles = Set(
      (unread["items"] as? [[String: Any]] ?? []).filter {
        ($0["source"] as? String)?.hasPrefix("tt/") == true
      }.compactMap { $0["title"] as? String })
    #expect(titles == ["First story", "A post"])
    let bookmarks = try await harness.run(["bookmarks", "--json"]).json()
    #expect(
      Set((bookmarks["articles"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String })
        == ["A post", "Second story"])

    // A whole feed read: catchupFeed.
    #expect(await harness.run(["read", "--all", "--source", "tt/loop-news"]).code == .success)
    #expect(await harness.run(["sync", "--account", "tt"]).code == .success)
    #expect(try ttrss.state(first)?.unread == false)
    #expect(try ttrss.state(post)?.unread == true, "the other feed stays unread")

    // accounts test: the round trip leaves the read item read.
    let tested = await harness.run(["accounts", "test", "tt"])
    #expect(tested.code == .success, "\(tested.err)")
    #expect(tested.out.contains("marked unread and read again"), "\(tested.out)")
    #expect(try ttrss.state(first)?.unread == false && ttrss.state(second)?.unread == false)

    // Unsubscribing from here.
    #expect(await harness.run(["sources", "remove", "tt/a-blog"]).code == .success)
    #expect(try ttrss.feeds() == ["https://news.example/rss"])
  }
}
