import Foundation
import TestSupport
import Testing

/// One link in two sources (the audit's pair: `weblog` and `media`, both linking
/// `http://example.com/blog/this_is_an_item.html`) is one article with one id.
@Suite("one link carried by two sources")
struct SharedLinkTests {
  let harness: Harness
  let environment: [String: String?]

  static func rss(_ title: String, link: String, other: String) -> String {
    """
    <rss version="2.0"><channel><title>\(title)</title>
    <item><title>\(title): the shared one</title><link>\(link)</link></item>
    <item><title>\(title): only here</title><link>\(other)</link></item>
    </channel></rss>
    """
  }

  init() throws {
    harness = try Harness()
    let base = harness.server.baseURL.absoluteString
    harness.server.route(
      "/weblog.xml",
      LoopbackServer.Response(
        body: Data(
          Self.rss(
            "weblog", link: "http://example.com/blog/this_is_an_item.html",
            other: "http://example.com/blog/weblog-only.html"
          ).utf8)))
    // The same link spelled another way: scheme and host case, default port, a fragment.
    harness.server.route(
      "/media.xml",
      LoopbackServer.Response(
        body: Data(
          Self.rss(
            "media", link: "HTTP://Example.COM:80/blog/this_is_an_item.html#comments",
            other: "http://example.com/blog/media-only.html"
          ).utf8)))
    let config = try harness.home.write(
      "config.json",
      #"{"sources": [{"name": "weblog", "url": "\#(base)/weblog.xml"}, "#
        + #"{"name": "media", "url": "\#(base)/media.xml"}]}"#)
    environment = ["NEWS_CONFIG": config]
  }

  static let shared = "example.com-blog-this_is_an_item.html"

  @Test("the list shows it once, under the first source, naming both; JSON says sources")
  func listedOnce() async throws {
    let json = await harness.run(
      ["feed", "--source", "weblog,media", "--json"], environment: environment)
    #expect(json.code == .success, "\(json.err)")
    let items = try #require(try json.json()["items"] as? [[String: Any]])
    #expect(items.compactMap { $0["id"] as? String }.filter { $0 == Self.shared }.count == 1)
    let shared = try #require(items.first { $0["id"] as? String == Self.shared })
    #expect(shared["title"] as? String == "weblog: the shared one")
    #expect(shared["sources"] as? [String] == ["weblog", "media"])
    #expect(items.count == 3)
    let text = await harness.run(
      ["feed", "--source", "weblog,media", "--offline"], environment: environment)
    #expect(text.out.contains("also in media"))
    #expect(text.out.contains("3 unread"))
  }

  @Test("its id bookmarks, shows and marks read the item printed with it, in either list")
  func idMeansThePrintedItem() async throws {
    await harness.succeed(["feed", "--source", "weblog,media"], environment: environment)
    let bookmark = await harness.run(["bookmark", Self.shared], environment: environment)
    #expect(bookmark.out.contains("weblog: the shared one"), "\(bookmark.out)")
    let bookmarks = await harness.run(["bookmarks", "--json"], environment: environment)
    let articles = try #require(try bookmarks.json()["articles"] as? [[String: Any]])
    #expect(articles.map { $0["title"] as? String } == ["weblog: the shared one"])

    // The media list alone shows media's copy: its id then means that copy.
    let media = await harness.run(
      ["feed", "--source", "media", "--offline", "--json"], environment: environment)
    let mediaItems = try #require(try media.json()["items"] as? [[String: Any]])
    #expect(mediaItems.first?["title"] as? String == "media: the shared one")
    let show = await harness.run(["show", Self.shared, "--offline"], environment: environment)
    #expect(show.out.hasPrefix("media: the shared one"), "\(show.out)")

    // Read once, read everywhere: it is one article.
    let both = await harness.run(
      ["feed", "--source", "weblog,media", "--offline", "--json"], environment: environment)
    let read = try #require(try both.json()["items"] as? [[String: Any]])
    #expect(read.first { $0["id"] as? String == Self.shared }?["read"] as? Bool == true)
    #expect(mediaItems.contains { $0["id"] as? String == Self.shared })
  }

  @Test("an id not in the last list is answered with the first source's copy")
  func orderDecides() async throws {
    await harness.succeed(["feed", "--source", "weblog,media"], environment: environment)
    await harness.succeed(["bookmarks"], environment: environment)
    let show = await harness.run(["show", Self.shared, "--offline"], environment: environment)
    #expect(show.out.hasPrefix("weblog: the shared one"), "\(show.out)")
  }
}
