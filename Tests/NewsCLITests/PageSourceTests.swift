import Foundation
import NewsCore
import TestSupport
import Testing

/// `news sources add URL --items …`: a page with no feed read by selectors, tried with
/// --dry-run first, then added, refreshed and read like any feed.
@Suite("sources add --items: pages read by selectors")
struct PageSourceTests {
  let harness: Harness
  var configPath: String { harness.home.path("news/config.json") }

  static let page = #"""
    <html><head><title>Acme &amp; Co</title><base href="https://acme.example/blog/"></head>
    <body><article><h2><a href="post-1.html">Fish &amp;amp; chips</a></h2>
      <time datetime="2026-11-01T10:00:00Z">1 Nov</time><p class="summary">Hello <b>world</b></p>
    </article>
    <article><h2><a href="/post-2.html">Second</a></h2></article></body></html>
    """#

  init() throws {
    harness = try Harness()
    harness.server.route(
      "/news.html",
      LoopbackServer.Response(headers: ["Content-Type": "text/html"], body: Data(Self.page.utf8)))
  }

  var selectors: [String] {
    ["--items", "article", "--title", "h2", "--date", "time@datetime", "--content", ".summary"]
  }

  @Test("--dry-run prints what the page gives and adds nothing; then it is added and read")
  func dryRunThenAdd() async throws {
    let url = harness.server.baseURL.absoluteString + "/news.html"
    let preview = await harness.run(["sources", "add", url] + selectors + ["--dry-run"])
    #expect(preview.code == .success, "\(preview.err)")
    #expect(
      preview.out.hasPrefix(
        """
        1. Fish &amp; chips
           https://acme.example/blog/post-1.html · 2026-11-01 10:00
           Hello world
        2. Second
           https://acme.example/post-2.html · no date: dated when first seen
        would add: acme-co (\(url)) · 2 items; nothing changed (--dry-run)
        """), "\(preview.out)")
    #expect(!FileManager.default.fileExists(atPath: configPath), "nothing written")

    let added = await harness.run(["sources", "add", url] + selectors)
    #expect(added.code == .success, "\(added.err)")
    #expect(added.out == "added: acme-co (\(url)) · Acme & Co · 2 items\n")
    let config = try String(contentsOfFile: configPath, encoding: .utf8)
    #expect(
      config.contains(
        #""html":{"items":"article","title":"h2","date":"time@datetime","content":".summary"}"#))
    let sources =
      try await harness.run(["sources", "--json"]).json()["sources"] as? [[String: Any]]
    #expect(sources?.first { $0["name"] as? String == "acme-co" }?["format"] as? String == "html")

    let feed = await harness.run(["feed", "--offline", "--source", "acme-co", "--json"])
    let items = try #require(try feed.json()["items"] as? [[String: Any]])
    #expect(items.map { $0["title"] as? String } == ["Fish &amp; chips", "Second"])
    #expect(
      items.map { $0["url"] as? String } == [
        "https://acme.example/blog/post-1.html", "https://acme.example/post-2.html",
      ])
    #expect(items[1]["publishedAt"] is NSNull, "no date: dated when first seen, never 'now'")
    // Fetched again, the same links are the same items.
    let again = await harness.run(["feed", "--refresh", "--source", "acme-co", "--json"])
    let ids = try #require(try again.json()["items"] as? [[String: Any]]).map {
      $0["id"] as? String
    }
    #expect(ids == items.map { $0["id"] as? String })
    #expect(harness.server.requests(to: "/news.html").count == 3)
  }

  @Test(
    "a selector matching nothing is 65 naming it; a field without --items or a bad selector is 64",
    arguments: [
      (
        ["--items", "li.story"], ExitCode.dataError,
        "gave no item: the items selector 'li.story' matched nothing on the page"
      ),
      (["--title", "h2"], .usage, "--title reads a page: it needs --items <selector>"),
      (["--items", "article", "--date", "@"], .usage, "--date '@' unexpected '@'"),
      (["--items", "article", "--account", "home"], .usage, "--items and --account contradict"),
    ] as [([String], ExitCode, String)])
  func refusals(options: [String], code: ExitCode, message: String) async throws {
    let url = harness.server.baseURL.absoluteString + "/news.html"
    let result = await harness.run(["sources", "add", url] + options)
    #expect(result.code == code, "\(result.err)")
    #expect(result.err.contains(message), "\(result.err)")
    #expect(!FileManager.default.fileExists(atPath: configPath))
  }

  @Test("\"html\" in config.json is checked when read: 78 naming the field")
  func configChecked() async throws {
    try FileManager.default.createDirectory(
      atPath: harness.home.path("news"), withIntermediateDirectories: true)
    try #"{"sources": [{"name": "p", "url": "https://x.example/", "html": {"title": "h2"}}]}"#
      .write(toFile: configPath, atomically: true, encoding: .utf8)
    let result = await harness.run(["sources"])
    #expect(result.code == .configuration)
    #expect(result.err.contains("html.items"), "\(result.err)")
  }
}
