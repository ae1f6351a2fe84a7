import FeedParsing
import Foundation
import TestSupport
import Testing

@testable import NewsCore

/// `show --full`, full text kept and searched, and sources with `"fullText": true`, on loopback.
@Suite("Full text")
struct FullTextTests {
  let harness: Harness
  var base: String { harness.server.baseURL.absoluteString }

  init() throws {
    harness = try Harness()
    harness.server.route(
      "/story.html",
      LoopbackServer.Response(
        headers: ["Content-Type": "text/html; charset=utf-8"],
        body: Fixtures.data("pages/news-story.html")))
    harness.server.route(
      "/home.html",
      LoopbackServer.Response(
        headers: ["Content-Type": "text/html"], body: Fixtures.data("pages/home-page.html")))
  }

  /// A run without likes and comments (not what these tests are about).
  func run(_ arguments: [String]) async -> RunResult {
    await harness.run(arguments, environment: ["NEWS_COUNTS": "off"])
  }

  func succeed(_ arguments: [String]) async {
    await harness.succeed(arguments, environment: ["NEWS_COUNTS": "off"])
  }

  @Test("a page over 10 MiB without a length is asked for once, and said so in one error line")
  func pageOverCap() async throws {
    harness.server.route(
      "/huge.html", .streamed(Data(repeating: 0x61, count: 64 << 10), count: 400))
    let result = await run(["show", base + "/huge.html", "--full"])
    #expect(result.code == .dataError, "\(result.err)")
    #expect(result.err.contains("more than 10 MiB"), "\(result.err)")
    #expect(!result.err.contains("connection"), "\(result.err)")
    #expect(result.err.split(separator: "\n").count == 1, "\(result.err)")
    #expect(!result.err.contains("warning:"), "\(result.err)")
    #expect(harness.server.requests(to: "/huge.html").count == 1)
  }

  @Test("show --full: fetched once, extracted, kept; shown again and --offline without a request")
  func show() async throws {
    let url = base + "/story.html"
    let first = await run(["show", url, "--full", "--json"])
    #expect(first.code == .success, "\(first.err)")
    let json = try first.json()
    #expect((json["content"] as? String)?.hasPrefix("The city council voted on Tuesday") == true)
    #expect(json["title"] as? String == "City council approves new bike lanes")
    let full = try #require(json["fullText"] as? [String: Any])
    #expect(full["byline"] as? String == "Jane Doe")
    #expect(full["siteName"] as? String == "The Daily Example")
    #expect(full["publishedAt"] as? String == "2026-11-20T10:00:00Z")
    #expect(full["url"] as? String == url)
    #expect((full["words"] as? Int ?? 0) > 100)
    #expect(full["extractedAt"] as? String == "2022-02-17T17:46:40Z")
    #expect(
      Set(full.keys) == [
        "url", "title", "byline", "siteName", "excerpt", "imageUrl", "publishedAt",
        "extractedAt", "words",
      ])
    let again = await run(["show", url, "--full"])
    #expect(again.code == .success)
    #expect(again.out.contains("Full text from The Daily Example ·"))
    #expect(again.out.contains("• Lower speed limits near schools"))
    let offline = await run(["show", url, "--full", "--offline"])
    #expect(offline.code == .success)
    #expect(offline.out.contains("Harbour Road | 7 km"))
    #expect(harness.server.requests(to: "/story.html").count == 1)
  }

  @Test("a page with no article: said on stderr, exit 65, what the feed had on stdout")
  func noArticle() async {
    let result = await run(["show", base + "/home.html", "--full"])
    #expect(result.code == .dataError)
    #expect(result.err.contains("no article found in \(base)/home.html"))
    #expect(result.out.contains("Read:  \(base)/home.html"))
    #expect(!result.out.contains("Full text"))
  }

  @Test("--offline with nothing kept, and a page answering 404: exit 69, the article still shown")
  func unavailable() async {
    harness.server.route("/gone.html", LoopbackServer.Response(status: 404))
    let offline = await run(["show", base + "/story.html", "--full", "--offline"])
    #expect(offline.code == .unavailable)
    #expect(offline.err.contains("no full text kept"))
    #expect(harness.server.requests(to: "/story.html").isEmpty)
    let gone = await run(["show", base + "/gone.html", "--full"])
    #expect(gone.code == .unavailable)
    #expect(gone.err.contains("answered HTTP 404"))
    #expect(gone.out.contains("Read:"))
  }

  @Test("search finds words only in a kept full text, and says so")
  func search() async throws {
    await succeed(["show", base + "/story.html", "--full"])
    let result = await run(["search", "concrete", "barriers", "--json"])
    #expect(result.code == .success)
    let articles = try #require(try result.json()["articles"] as? [[String: Any]])
    #expect(articles.count == 1)
    #expect(articles.first?["matchedIn"] as? String == "fullText")
    #expect(articles.first?["url"] as? String == base + "/story.html")
    let none = await run(["search", "zeppelin", "--json"])
    #expect((try none.json()["articles"] as? [Any])?.isEmpty == true)
    // The text says it too, and no image placeholder (that is the headlines list's).
    let text = await run(["search", "concrete", "barriers"])
    #expect(text.out.contains("matched in its full text"), "\(text.out)")
    #expect(!text.out.contains("[no image]"))
  }

  /// A feed whose two items link to the story and to a page that is gone.
  func subscribe(fullText: Bool) throws {
    let feed = """
      <rss version="2.0"><channel><title>Example</title>
      <item><title>Bike lanes</title><link>\(base)/story.html</link><description>Short.</description></item>
      <item><title>Gone</title><link>\(base)/gone.html</link><description>Also short.</description></item>
      </channel></rss>
      """
    harness.server.route(
      "/feed.xml",
      LoopbackServer.Response(
        headers: ["Content-Type": "application/rss+xml"], body: Data(feed.utf8)))
    harness.server.route("/gone.html", LoopbackServer.Response(status: 404))
    try harness.writeConfig(
      sources:
        #"{"name": "ex", "url": "\#(base)/feed.xml"\#(fullText ? ", \"fullText\": true" : "")}"#)
  }

  @Test(
    "a fullText source: feed extracts its items' full text after keeping them; a failure is a warning"
  )
  func source() async throws {
    try subscribe(fullText: true)
    let result = await run(["feed", "--source", "ex"])
    #expect(result.code == .success)
    #expect(result.err.contains("not fetched: \(base)/gone.html answered HTTP 404"))
    #expect(harness.server.requests(to: "/story.html").count == 1)
    // show gives the full text by default, from the store.
    let shown = await run(["show", "1"])
    #expect(shown.out.contains("Full text from The Daily Example"))
    #expect(harness.server.requests(to: "/story.html").count == 1)
    // The next run asks again only for what failed.
    _ = await run(["feed", "--source", "ex", "--refresh"])
    #expect(harness.server.requests(to: "/story.html").count == 1)
    #expect(harness.server.requests(to: "/gone.html").count == 2)
  }

  @Test("sources set --full-text writes the setting; --no-full-text removes it")
  func setting() async throws {
    try subscribe(fullText: false)
    await succeed(["sources", "set", "ex", "--full-text"])
    let config = try String(contentsOfFile: harness.home.path("news/config.json"), encoding: .utf8)
    #expect(config.contains("\"fullText\": true") || config.contains("\"fullText\":true"))
    let listed = try await run(["sources", "--json"]).json()
    let ex = (listed["sources"] as? [[String: Any]])?.first { $0["name"] as? String == "ex" }
    #expect(ex?["fullText"] as? Bool == true)
    await succeed(["sources", "set", "ex", "--no-full-text"])
    let after = try String(contentsOfFile: harness.home.path("news/config.json"), encoding: .utf8)
    #expect(!after.contains("fullText"))
    let refused = await run(["sources", "set", "bbc", "--full-text"])
    #expect(refused.code != .success)
  }

  @Test(
    "config.json: fullText and extract are checked, naming the field",
    arguments: [
      (#"{"fullText": "yes"}"#, "field 'fullText' must be true or false"),
      (#"{"extract": "article"}"#, "field 'extract' must be an object with keep and/or drop"),
      (#"{"extract": {"keep": "p:first"}}"#, "field 'extract.keep' unexpected ':'"),
      (#"{"extract": {"drop": 3}}"#, "field 'extract.drop' must be a selector"),
      (#"{"extract": {"remove": ".ad"}}"#, "field 'extract.remove' is not understood"),
      (#"{"extract": {"keep": "*"}}"#, "field 'extract.keep' '*' selects every element"),
    ])
  func config(member: String, message: String) async throws {
    let entry = member.dropFirst().dropLast()
    let config = #"{"sources": [{"name": "ex", "url": "https://x.example/feed", "# + entry + "}]}"
    try FileManager.default.createDirectory(
      atPath: harness.home.path("news"), withIntermediateDirectories: true)
    try Data(config.utf8).write(to: URL(fileURLWithPath: harness.home.path("news/config.json")))
    let result = await run(["sources"])
    #expect(result.code == .configuration)
    #expect(result.err.contains(message), "\(result.err)")
  }
}

/// A podcast feed's enclosures through `feed` and `show`, kept in the store.
@Suite("Enclosures on the command line")
struct EnclosureCommandTests {
  @Test("feed and show list the episodes, in text and JSON; a cached feed has them from the store")
  func podcast() async throws {
    let harness = try Harness()
    let base = harness.server.baseURL.absoluteString
    let feed = """
      <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
      <title>Cast</title><item><title>Episode 1</title><link>\(base)/ep1</link>
      <enclosure url="\(base)/ep1.mp3" length="48213000" type="audio/mpeg"/>
      <itunes:duration>1:02:03</itunes:duration></item></channel></rss>
      """
    harness.server.route(
      "/cast.xml",
      LoopbackServer.Response(
        headers: ["Content-Type": "application/rss+xml"], body: Data(feed.utf8)))
    try harness.writeConfig(sources: #"{"name": "cast", "url": "\#(base)/cast.xml"}"#)
    let environment: [String: String?] = ["NEWS_COUNTS": "off"]
    let text = await harness.run(["feed"], environment: environment)
    #expect(text.code == .success, "\(text.err)")
    #expect(text.out.contains("[audio/mpeg · 48 MB · 1:02:03] \(base)/ep1.mp3"))
    // Answered from the cache now: the enclosures from the store.
    let json = try await harness.run(["feed", "--json"], environment: environment).json()
    let item = try #require((json["items"] as? [[String: Any]])?.first)
    let enclosures = try #require(item["enclosures"] as? [[String: Any]])
    #expect(enclosures.first?["url"] as? String == "\(base)/ep1.mp3")
    #expect(enclosures.first?["length"] as? Int == 48_213_000)
    #expect(enclosures.first?["duration"] as? Int == 3723)
    #expect(enclosures.first?["type"] as? String == "audio/mpeg")
    #expect(harness.server.requests(to: "/cast.xml").count == 1)
    let shown = await harness.run(["show", "1"], environment: environment)
    #expect(shown.out.contains("File:  [audio/mpeg · 48 MB · 1:02:03] \(base)/ep1.mp3"))
    let shownJSON = try await harness.run(["show", "1", "--json"], environment: environment).json()
    #expect((shownJSON["enclosures"] as? [[String: Any]])?.count == 1)
    // Every list's ARTICLE has them too.
    let found = try await harness.run(["search", "episode", "--json"], environment: environment)
      .json()
    let article = try #require((found["articles"] as? [[String: Any]])?.first)
    #expect((article["enclosures"] as? [[String: Any]])?.first?["duration"] as? Int == 3723)
    // And every list in text, under the item, as the feed lists it.
    for list in [["search", "episode"], ["bookmarks"]] {
      if list == ["bookmarks"] { await harness.succeed(["bookmark", "1"]) }
      let listed = await harness.run(list, environment: environment)
      #expect(
        listed.out.contains("\n   [audio/mpeg · 48 MB · 1:02:03] \(base)/ep1.mp3\n"),
        "\(list): \(listed.out)")
    }
  }
}

/// `news play`: an episode's URL to the player.
@Suite("Playing an episode")
struct PlayCommandTests {
  @Test("NEWS_PLAYER gets the episode's URL; no media is exit 65; no player prints the URL")
  func play() async throws {
    let harness = try Harness()
    let base = harness.server.baseURL.absoluteString
    let feed = """
      <rss version="2.0"><channel><title>Cast</title>
      <item><title>Episode 1</title><link>\(base)/ep1</link>
      <enclosure url="\(base)/cover.jpg" type="image/jpeg"/>
      <enclosure url="\(base)/ep1.mp3" type="audio/mpeg"/><enclosure url="\(base)/ep1.mp4" type="video/mp4"/></item>
      <item><title>Notes</title><link>\(base)/notes</link></item></channel></rss>
      """
    harness.server.route(
      "/cast.xml",
      LoopbackServer.Response(
        headers: ["Content-Type": "application/rss+xml"], body: Data(feed.utf8)))
    try harness.writeConfig(sources: #"{"name": "cast", "url": "\#(base)/cast.xml"}"#)
    await harness.succeed(["feed"])
    let log = harness.home.path("played.txt")
    let script = try harness.home.writeExecutable(
      "player.sh", "#!/bin/sh\nprintf '%s\\n' \"$@\" >> \(log)\n")
    let played = await harness.run(
      ["play", "1"], environment: ["NEWS_PLAYER": script + " --fs %s"])
    #expect(played.code == .success, "\(played.err)")
    #expect(try String(contentsOfFile: log, encoding: .utf8) == "--fs\n\(base)/ep1.mp3\n")
    let second = await harness.run(["play", "1", "2"], environment: ["NEWS_PLAYER": script])
    #expect(second.code == .success)
    #expect(try String(contentsOfFile: log, encoding: .utf8).hasSuffix("\(base)/ep1.mp4\n"))
    let none = await harness.run(["play", "2"], environment: ["NEWS_PLAYER": script])
    #expect(none.code == .dataError)
    #expect(none.err.contains("carries no audio or video"))
    let printed = await harness.run(
      ["play", "1"], environment: ["NEWS_PLAYER": nil, "PATH": "/nonexistent", "DISPLAY": nil])
    #expect(printed.out == "\(base)/ep1.mp3\n")
  }
}

/// `news feed --since <time>`: the items first seen since then.
@Suite("feed --since")
struct FeedSinceTests {
  @Test("only the items first seen at or after the time; a bad time or --new with it is exit 64")
  func since() async throws {
    let harness = try Harness()
    let stories = Recorder<String>()
    stories.record("one")
    harness.server.route("/r.xml") { _ in
      let entries = stories.all.map {
        "<item><title>Story \($0)</title><link>https://r.example/\($0)</link></item>"
      }.joined()
      return .json("<rss version=\"2.0\"><channel><title>R</title>\(entries)</channel></rss>")
    }
    try harness.writeConfig(
      sources: #"{"name": "r", "url": "\#(harness.server.baseURL.absoluteString)/r.xml"}"#)
    let environment: [String: String?] = [:]
    let day = Date(timeIntervalSince1970: 1_764_000_000)
    await harness.succeed(["feed"], environment: environment, now: day)
    stories.record("two")
    await harness.succeed(
      ["feed", "--refresh"], environment: environment, now: day.addingTimeInterval(3600))
    let later = await harness.run(
      ["feed", "--since", ISO8601.string(from: day.addingTimeInterval(1800)), "--jsonl"],
      environment: environment, now: day.addingTimeInterval(7200))
    #expect(later.code == .success, "\(later.err)")
    #expect(later.out.split(separator: "\n").count == 1)
    #expect(later.out.contains("Story two"))
    let all = await harness.run(
      ["feed", "--since", ISO8601.string(from: day), "--jsonl"], environment: environment,
      now: day.addingTimeInterval(7200))
    #expect(all.out.split(separator: "\n").count == 2)
    // How long ago: ninety minutes before the last hour's end is half an hour into the day.
    let ago = await harness.run(
      ["feed", "--since", "90m", "--jsonl"], environment: environment,
      now: day.addingTimeInterval(7200))
    #expect(ago.out.split(separator: "\n").count == 1, "\(ago.err)")
    #expect(ago.out.contains("Story two"))
    let bad = await harness.run(["feed", "--since", "yesterday"], environment: environment)
    #expect(bad.code == .usage)
    #expect(bad.err.contains("--since expects an ISO 8601 time"))
    let both = await harness.run(
      ["feed", "--new", "--since", "2026-11-25T00:00:00Z"], environment: environment)
    #expect(both.code == .usage)
  }
}

extension Harness {
  /// Writes `config.json` in NEWS_HOME with `sources` (JSON objects, comma-separated) and the
  /// demo sources a, b and c turned off: only these are fetched.
  func writeConfig(sources: String) throws {
    try FileManager.default.createDirectory(
      atPath: home.path("news"), withIntermediateDirectories: true)
    let off = ["a", "b", "c"].map { #"{"name": "\#($0)", "enabled": false}"# }
    let text = #"{"sources": [\#(sources), \#(off.joined(separator: ", "))]}"#
    try Data(text.utf8).write(to: URL(fileURLWithPath: home.path("news/config.json")))
  }
}
