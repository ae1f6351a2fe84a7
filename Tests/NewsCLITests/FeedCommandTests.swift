import FeedParsing
import Foundation
import NewsCore
import Synchronization
import TestSupport
import Testing

@Suite("news feed")
struct FeedCommandTests {
  let harness: Harness

  init() throws {
    harness = try Harness()
    for name in ["a", "b", "c"] {
      harness.server.route("/feed/\(name).json", .fixture("source_\(name).readme-sample.json"))
    }
  }

  @Test("--json: items and a report per source")
  func json() async throws {
    let result = await harness.run(["feed", "--json"])
    #expect(result.code == .success)
    #expect(result.err.isEmpty)
    let document = try result.json()
    let items = try #require(document["items"] as? [[String: Any]])
    #expect(items.map { $0["title"] as? String } == ["Interesting News!", "WOW", "Latest article"])
    // Additive: url, publishedAt and author came with web feeds (null for these sources),
    // enclosures with podcasts (empty here), ARTICLE's provider, description, content (#47.2).
    #expect(
      Set(items[0].keys) == [
        "id", "source", "sources", "title", "subtitle", "imageUrl", "url", "publishedAt",
        "author", "read", "enclosures", "provider", "description", "content", "categories",
      ])
    #expect((items[0]["enclosures"] as? [Any])?.isEmpty == true)
    let sources = try #require(document["sources"] as? [[String: Any]])
    #expect(sources.map { $0["status"] as? String } == ["fresh", "fresh", "fresh"])
    #expect(Set(sources[0].keys) == ["name", "url", "status", "fetchedAt", "expiresAt", "error"])
    #expect(sources[0]["error"] is NSNull)
  }

  @Test("the list is kept before it is shown: news feed | head, then news show 3, counts in it")
  func keptBeforeShown() async throws {
    let listing = harness.home.path("news") + "/last-listing.enc"
    // What a reader's `| head` sees before it closes the pipe (and the next write ends news).
    let keptAtFirstWrite = Mutex<Bool?>(nil)
    let result = await harness.run(
      ["feed"],
      onOutput: { _ in
        keptAtFirstWrite.withLock { $0 = $0 ?? FileManager.default.fileExists(atPath: listing) }
      })
    #expect(result.code == .success, "\(result.err)")
    #expect(keptAtFirstWrite.withLock { $0 } == true)
  }

  @Test("a second run within the TTL makes no request")
  func cached() async throws {
    await harness.succeed(["feed"])
    let result = await harness.run(["feed", "--json"])
    let sources = try #require(try result.json()["sources"] as? [[String: Any]])
    #expect(sources.map { $0["status"] as? String } == ["cached", "cached", "cached"])
    #expect(harness.server.requests.count == 3)
  }

  @Test("text groups items by source, no image placeholder (the headlines'); no spinner in a pipe")
  func text() async throws {
    harness.server.route("/feed/a.json", .json(#"{"stories":[{"title":"No picture"}]}"#))
    let result = await harness.run(["feed"])
    #expect(result.out.hasPrefix("Feed · 3 items from 3 sources · 3 unread\n"))
    #expect(result.out.contains("Source A (fresh, 1 unread)"))
    #expect(result.out.contains("Source C (fresh, 1 unread)"))
    #expect(!result.out.contains("[no image]"))
    #expect(result.out.contains("And here is the subtitle!"))
    #expect(result.err.isEmpty)
  }

  @Test("with every source disabled, the feed is empty with a hint: exit 0, not a failure")
  func noSource() async throws {
    let off = ["a", "b", "c", "articles", "bbc"].map { #"{"name": "\#($0)", "enabled": false}"# }
    let config = try harness.home.write(
      "config.json", #"{"sources": [\#(off.joined(separator: ", "))]}"#)
    let result = await harness.run(["feed"], environment: ["NEWS_CONFIG": config])
    #expect(result.code == .success, "\(result.err)")
    #expect(result.out.contains("No source to show: subscribe with 'news sources add <url>'"))
    #expect(result.err.isEmpty, "\(result.err)")
    let json = await harness.run(["feed", "--json"], environment: ["NEWS_CONFIG": config])
    #expect(json.code == .success)
    #expect((try json.json()["items"] as? [Any])?.isEmpty == true)
  }

  @Test("a spinner on a terminal leaves nothing behind")
  func spinner() async throws {
    let result = await harness.run(["feed"], terminal: true)
    #expect(result.err.hasSuffix("\r\u{1B}[K"))
  }

  @Test("--source restricts the feed; an unknown source is exit 64 with a suggestion")
  func sourceFilter() async throws {
    let result = await harness.run(["feed", "--source", "a,c", "--json"])
    let items = try #require(try result.json()["items"] as? [[String: Any]])
    #expect(items.map { $0["source"] as? String } == ["a", "c"])
    let one = await harness.run(["feed", "--source", "a"])
    #expect(one.out.hasPrefix("Feed · 1 item from 1 source · 1 unread\n"))
    #expect(harness.server.requests(to: "/feed/b.json").isEmpty)
    let unknown = await harness.run(["feed", "--source", "x"])
    #expect(unknown.code == .usage)
  }

  @Test("partial failure: exit 0, a warning per failed source")
  func partial() async throws {
    harness.server.route("/feed/b.json", .json("{}", status: 404))
    let result = await harness.run(["feed", "--json"])
    #expect(result.code == .success)
    #expect(result.err.contains("source b answered HTTP 404"))
    let sources = try #require(try result.json()["sources"] as? [[String: Any]])
    #expect(sources[1]["status"] as? String == "failed")
  }

  @Test(
    "a web feed end to end: read in the HTTP charset, links resolved against the URL after a redirect, empty items left out with one warning"
  )
  func webFeedEndToEnd() async throws {
    harness.server.route("/feed/a.json", .redirect(to: "/blog/feed.xml"))
    // KOI8-R by the HTTP header; the XML declaration says nothing.
    let body =
      Data(#"<?xml version="1.0"?><rss><channel><item><title>"#.utf8)
      + Data([0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4])  // "Привет" in KOI8-R
      + Data(
        #"</title><link>posts/1.html</link></item><item><title>&nbsp;Only a title</title></item><item/></channel></rss>"#
          .utf8)
    harness.server.route(
      "/blog/feed.xml",
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "application/rss+xml; charset=KOI8-R"], body: body))
    let base = harness.server.baseURL.absoluteString
    try FileManager.default.createDirectory(
      atPath: harness.home.path("news"), withIntermediateDirectories: true)
    _ = try harness.home.write(
      "news/config.json", #"{"sources":[{"name":"a","url":"\#(base)/feed/a.json","format":"rss"}]}"#
    )
    let result = await harness.run(["feed", "--source", "a", "--json"])
    #expect(result.code == .success)
    #expect(
      result.err
        == "news: warning: source a: 1 empty item (nothing but an id, or nothing at all) left out\n"
    )
    let items = try #require(try result.json()["items"] as? [[String: Any]])
    #expect(items.map { $0["title"] as? String } == ["Привет", "Only a title"])
    #expect(items[0]["url"] as? String == base + "/blog/posts/1.html")
    #expect(items[1]["url"] is NSNull)
    // A web feed asks for a feed, not for JSON.
    let accept = harness.server.requests(to: "/feed/a.json").first?.headers["accept"]
    #expect(
      accept?.hasPrefix("application/rss+xml, application/atom+xml") == true, "\(accept ?? "")")
  }

  @Test("every source failing is exit 69")
  func allFailed() async {
    for name in ["a", "b", "c"] { harness.server.route("/feed/\(name).json", .dropped) }
    let result = await harness.run(["feed"])
    #expect(result.code == .unavailable)
    // Each source's failure names it, as an error (no warning with a failing exit), then the
    // last line says every source failed.
    let lines = result.err.split(separator: "\n")
    #expect(lines.count == 4)
    #expect(!result.err.contains("warning"))
    for (line, name) in zip(lines, ["a", "b", "c"]) {
      #expect(line.hasPrefix("news: source \(name): cannot reach 127.0.0.1"))
    }
    #expect(lines.last == "news: every feed source failed (3 of 3)")
  }

  @Test("an invalid config.json is exit 78")
  func invalidConfig() async throws {
    let path = try harness.home.write("config.json", #"{"sources": 3}"#)
    let result = await harness.run(["feed"], environment: ["NEWS_CONFIG": path])
    #expect(result.code == .configuration)
    #expect(result.err.contains("config.json"))
  }

  @Test("--limit caps the items in all")
  func limit() async throws {
    let result = await harness.run(["feed", "--json", "--limit", "2"])
    #expect((try result.json()["items"] as? [Any])?.count == 2)
  }
}

@Suite("news feed with web feeds declared in config.json")
struct WebFeedCommandTests {
  @Test("a source with only a URL is read as RSS, Atom or JSON Feed, whatever it turns out to be")
  func webFeeds() async throws {
    let harness = try Harness()
    let base = harness.server.baseURL.absoluteString
    harness.server.route(
      "/blog.xml",
      LoopbackServer.Response(
        headers: ["Content-Type": "text/plain"], body: Fixtures.data("feeds/rss20_1.xml")))
    harness.server.route(
      "/atom.xml", LoopbackServer.Response(body: Fixtures.data("feeds/atom10_1.xml")))
    let config = try harness.home.write(
      "config.json",
      #"{"sources": [{"name": "blog", "url": "\#(base)/blog.xml"}, "#
        + #"{"name": "atom", "url": "\#(base)/atom.xml", "format": "atom", "ttl": 60}]}"#)
    let result = await harness.run(
      ["feed", "--source", "blog,atom", "--json"], environment: ["NEWS_CONFIG": config])
    #expect(result.code == .success, "\(result.err)")
    let items = try #require(try result.json()["items"] as? [[String: Any]])
    #expect(items.count == 4)
    #expect(items[0]["url"] as? String == "http://example.com/blog/this_is_an_item.html")
    #expect(items[0]["author"] as? String == "Andreas Krennmair")
    #expect(items[0]["publishedAt"] as? String == "2008-12-12T01:36:10Z")
    #expect(items[1]["source"] as? String == "atom")
    let text = await harness.run(
      ["feed", "--source", "blog", "--offline"], environment: ["NEWS_CONFIG": config])
    #expect(text.out.contains("http://example.com/blog/this_is_an_item.html"))
  }
}

extension WebFeedCommandTests {
  @Test("text that is not HTML is shown as written: the list, show and JSON keep <blink>")
  func textIsNotHTML() async throws {
    let harness = try Harness()
    let base = harness.server.baseURL.absoluteString
    harness.server.route(
      "/atom.xml",
      LoopbackServer.Response(
        body: Fixtures.data("feeds/edge/atom-text-blink.xml")))
    let config = try harness.home.write(
      "config.json", #"{"sources": [{"name": "atom", "url": "\#(base)/atom.xml"}]}"#)
    let environment = ["NEWS_CONFIG": config]
    let list = await harness.run(["feed", "--source", "atom"], environment: environment)
    #expect(list.code == .success, "\(list.err)")
    #expect(list.out.contains("1. History of the <blink> tag"))
    #expect(list.out.contains("Plain <b>not bold</b>"))
    let show = await harness.run(["show", "1", "--offline"], environment: environment)
    #expect(show.out.hasPrefix("History of the <blink> tag\n"), "\(show.out)")
    let json = await harness.run(["feed", "--source", "atom", "--json"], environment: environment)
    let items = try #require(try json.json()["items"] as? [[String: Any]])
    #expect(items.first?["title"] as? String == "History of the <blink> tag")
  }
}

@Suite("news sources")
struct SourcesCommandTests {
  @Test(
    "every source with its URL, format, TTL and last fetch, read from the cache without a request")
  func sources() async throws {
    let harness = try Harness()
    for name in ["a", "b", "c"] {
      harness.server.route("/feed/\(name).json", .fixture("source_\(name).readme-sample.json"))
    }
    let base = harness.server.baseURL.absoluteString
    let config = try harness.home.write(
      "config.json",
      #"{"sources": [{"name": "blog", "url": "\#(base)/blog.xml", "format": "rss"}]}"#)
    await harness.succeed(["feed", "--source", "a"], environment: ["NEWS_CONFIG": config])
    let before = harness.server.requests.count
    let result = await harness.run(["sources", "--json"], environment: ["NEWS_CONFIG": config])
    #expect(result.code == .success)
    #expect(harness.server.requests.count == before)
    let all = try #require(try result.json()["sources"] as? [[String: Any]])
    // The providers first, as sources of their own.
    #expect(all.prefix(3).allSatisfy { $0["format"] as? String == "provider" })
    let sources = Array(all.dropFirst(3))
    #expect(sources.map { $0["name"] as? String } == ["a", "b", "c", "blog"])
    #expect(sources[0]["status"] as? String == "fetched")
    #expect(sources[0]["fetchedAt"] as? String == "2022-02-17T17:46:40Z")
    #expect(sources[1]["status"] as? String == "never")
    #expect(sources[0]["ttl"] as? Int == 300)
    // When each is asked next, and why: A's items are not dated, so its default decides.
    #expect(sources[0]["nextFetchReason"] as? String == "noDates")
    #expect(sources[0]["nextFetchAt"] as? String == "2022-02-17T17:51:40Z")
    #expect(sources[0]["refreshInterval"] as? Int == 300)
    #expect(sources[1]["nextFetchReason"] as? String == "neverFetched")
    #expect(sources[1]["nextFetchAt"] is NSNull)
    #expect(sources[3]["format"] as? String == "rss")
    #expect(sources[0]["format"] as? String == "json")
    let text = await harness.run(["sources"], environment: ["NEWS_CONFIG": config])
    // Names padded to the longest, a provider's ("articles").
    #expect(
      text.out.contains(
        "blog      \(base)/blog.xml\n          rss · never fetched · asked by the next run\n"))
    #expect(text.out.contains("json · fetched just now · next in 5 min: no dated items to go by\n"))
    // A disabled source is asked by no run, and says so once.
    await harness.succeed(
      ["sources", "set", "a", "--disable"], environment: ["NEWS_CONFIG": config])
    let disabled = await harness.run(["sources", "--json"], environment: ["NEWS_CONFIG": config])
    let a = try #require(
      try (disabled.json()["sources"] as? [[String: Any]])?.first { $0["name"] as? String == "a" })
    #expect(a["nextFetchReason"] as? String == "disabled")
    #expect(a["nextFetchAt"] is NSNull)
    #expect(a["fetchedAt"] as? String == "2022-02-17T17:46:40Z")
    let line = await harness.run(["sources"], environment: ["NEWS_CONFIG": config])
    #expect(line.out.contains("json · disabled · fetched just now\n"), "\(line.out)")
  }
}

/// A source failing run after run (#35.1): one line, not a block each run; listed by
/// `news sources --failing`; cleared once it answers.
@Suite("feed: a source failing run after run")
struct FailingSourceTests {
  let harness: Harness

  init() throws { harness = try Harness() }

  @Test(
    "many failing at once: ten get a line each, the rest one line together; the next run one line")
  func manyFailing() async throws {
    harness.server.route("/feed/a.json", .fixture("source_a.readme-sample.json"))
    let names = (1...13).map { String(format: "down-%02d", $0) }
    for name in names { harness.server.route("/\(name).xml", .json("", status: 500)) }
    let base = harness.server.baseURL.absoluteString
    let entries = names.map { #"{"name": "\#($0)", "url": "\#(base)/\#($0).xml"}"# }
    try Data(
      (#"{"sources": [{"name": "b", "enabled": false}, {"name": "c", "enabled": false}, "#
        + entries.joined(separator: ", ") + "]}").utf8
    ).write(to: URL(fileURLWithPath: harness.home.path("many.json")))
    let environment: [String: String?] = [
      "NEWS_RETRY_DELAY": "0", "NEWS_CONFIG": harness.home.path("many.json"),
    ]
    let first = await harness.run(["feed", "--refresh"], environment: environment)
    #expect(first.code == .success, "\(first.err)")
    let lines = first.err.split(separator: "\n")
    #expect(lines.count == 11, "\(first.err)")
    #expect(lines.prefix(10).allSatisfy { $0.contains("answered HTTP 500") })
    let rest = names.suffix(3).joined(separator: ", ")
    #expect(
      lines.last == "news: warning: 3 more sources failed too (\(rest)): news sources --failing")
    let second = await harness.run(["feed", "--refresh"], environment: environment)
    let ten = names.prefix(10).joined(separator: ", ")
    #expect(
      second.err
        == "news: warning: 13 sources failing since just now (\(ten), …): news sources --failing\n",
      "\(second.err)")
  }

  @Test("--limit at many sources: ten left out get their block, the rest one line")
  func manyLeftOutByLimit() async throws {
    let names = (1...13).map { String(format: "feed-%02d", $0) }
    for name in names {
      harness.server.route(
        "/\(name).xml",
        LoopbackServer.Response(
          body: Data(
            ("<rss version=\"2.0\"><channel><title>\(name)</title><item><title>Story of \(name)"
              + "</title><link>https://\(name).example/1</link></item></channel></rss>").utf8)))
    }
    let base = harness.server.baseURL.absoluteString
    let entries = names.map { #"{"name": "\#($0)", "url": "\#(base)/\#($0).xml"}"# }
    let disabled = ["a", "b", "c"].map { #"{"name": "\#($0)", "enabled": false}"# }
    try Data((#"{"sources": ["# + (disabled + entries).joined(separator: ", ") + "]}").utf8)
      .write(to: URL(fileURLWithPath: harness.home.path("many.json")))
    let environment: [String: String?] = ["NEWS_CONFIG": harness.home.path("many.json")]
    #expect(await harness.run(["feed"], environment: environment).code == .success)
    let limited = await harness.run(
      ["feed", "--offline", "--limit", "1"], environment: environment)
    #expect(limited.code == .success, "\(limited.err)")
    #expect(limited.out.components(separatedBy: "not shown (--limit)").count - 1 == 11)
    #expect(limited.out.hasSuffix("\n2 more sources not shown (--limit)\n"), "\(limited.out)")
    #expect(limited.out.components(separatedBy: "Source feed-").count - 1 == 11)
  }

  @Test(
    "the second failing run says it in one line; sources --failing lists it; an answer clears it")
  func failingRunAfterRun() async throws {
    harness.server.route("/feed/a.json", .fixture("source_a.readme-sample.json"))
    harness.server.route("/feed/b.json", .json("", status: 500))
    harness.server.route("/feed/c.json", .json("", status: 500))
    let environment: [String: String?] = ["NEWS_RETRY_DELAY": "0"]
    let first = await harness.run(["feed", "--refresh"], environment: environment)
    #expect(first.code == .success)
    #expect(first.err.contains("source b") && first.err.contains("source c"), "\(first.err)")
    let later = Date(timeIntervalSince1970: 1_645_120_000 + 2 * 86_400)
    let second = await harness.run(["feed", "--refresh"], environment: environment, now: later)
    #expect(second.code == .success)
    #expect(
      second.err
        == "news: warning: 2 sources failing since 2d ago (b, c): news sources --failing\n",
      "\(second.err)")
    // Nothing stored of them: no block each run either (the first run showed theirs).
    #expect(first.out.contains("Source B (failed"), "\(first.out)")
    #expect(!second.out.contains("Source B") && !second.out.contains("nothing to show"))
    #expect(second.out.contains("Source A"))
    let failing = try await harness.run(["sources", "--failing", "--json"], now: later).json()
    let list = try #require(failing["failing"] as? [[String: Any]])
    #expect(list.compactMap { $0["name"] as? String } == ["b", "c"])
    #expect(list.first?["since"] as? String == "2022-02-17T17:46:40Z")
    #expect((list.first?["error"] as? String)?.contains("500") == true)
    #expect(list.first?["failures"] as? Int == 2)
    // Every source's health in news sources (#47.5): not "never" and null for a failing one.
    let sources = try #require(
      try await harness.run(["sources", "--json"], now: later).json()["sources"]
        as? [[String: Any]])
    let b = try #require(sources.first { $0["name"] as? String == "b" })
    #expect(b["failingSince"] as? String == "2022-02-17T17:46:40Z")
    #expect(b["failures"] as? Int == 2)
    #expect((b["lastError"] as? String)?.contains("500") == true)
    #expect(b["lastSuccessAt"] is NSNull)
    let a = try #require(sources.first { $0["name"] as? String == "a" })
    #expect(a["failures"] as? Int == 0 && a["failingSince"] is NSNull)
    #expect(a["lastSuccessAt"] as? String != nil)
    let listed = await harness.run(["sources"], now: later).out
    #expect(
      listed.contains(
        "failing since 2d ago (2 runs): answered HTTP 500 (internal server error) after 4 attempts"),
      "\(listed)")
    let both = await harness.run(["sources", "--failing"], now: later).out
    #expect(both.hasPrefix("b  failing since 2d ago: answered HTTP 500"), "\(both)")
    harness.server.route("/feed/b.json", .fixture("source_b.readme-sample.json"))
    await harness.succeed(["feed", "--refresh"], environment: environment, now: later)
    let text = await harness.run(["sources", "--failing"], now: later)
    #expect(text.out.hasPrefix("c  failing since 2d ago"), "\(text.out)")
    // Disabled, it is not asked: not failing either.
    await harness.succeed(["sources", "set", "c", "--disable"])
    let none = await harness.run(["sources", "--failing"], now: later)
    #expect(none.out == "No source is failing.\n", "\(none.out)")
  }
}

/// A source failing run after run is asked less and less often, never given up on (#47.5).
@Suite("feed: a failing source is backed off")
struct FailureBackoffTests {
  @Test(
    "sync --quiet says nothing of a source left alone (its failure was said), once more when it is asked and fails again"
  )
  func quietWhileLeftAlone() async throws {
    let harness = try Harness()
    harness.server.route("/feed/a.json", .fixture("source_a.readme-sample.json"))
    harness.server.route("/feed/b.json", .fixture("source_b.readme-sample.json"))
    harness.server.route("/feed/c.json", .json("", status: 500))
    let environment: [String: String?] = [
      "NEWS_RETRY_DELAY": "0", "NEWS_FEED_C_TTL": "1", "NEWSAPI_KEY": nil,
      "NEWS_ARTICLES_URL": nil, "NEWS_BBC_URL": nil,
    ]
    for name in ["articles", "bbc"] {
      await harness.succeed(["sources", "set", name, "--disable"])
    }
    let start = Date(timeIntervalSince1970: 1_645_120_000)
    func sync(_ seconds: Double, _ arguments: [String] = ["--quiet"]) async -> RunResult {
      await harness.run(["sync"] + arguments, environment: environment, now: start + seconds)
    }
    #expect(await sync(0).err.contains("c        failed: answered HTTP 500"))
    #expect(await sync(3_600).err.contains("c        failed: answered HTTP 500"))
    let asked = harness.server.requests(to: "/feed/c.json").count
    // Left alone for 2 minutes: nothing to say, the status the same.
    let quiet = await sync(3_660)
    #expect(quiet.code == .temporaryFailure)
    #expect(quiet.err.isEmpty && quiet.out.isEmpty, "\(quiet.err)")
    #expect(harness.server.requests(to: "/feed/c.json").count == asked)
    let report = try await sync(3_660, ["--json"]).json()
    let c = try #require(
      (report["sources"] as? [[String: Any]])?.first { $0["name"] as? String == "c" })
    #expect(c["status"] as? String == "failed" && c["asked"] as? Bool == false)
    #expect(c["nextFetchAt"] as? String == "2022-02-17T18:48:40Z")
    // Said without --quiet, with its last reason.
    #expect(await sync(3_660, []).out.contains("c        failed: answered HTTP 500"))
    #expect(harness.server.requests(to: "/feed/c.json").count == asked)
    // --refresh asks it all the same, as feed --refresh does.
    _ = await sync(3_660, ["--refresh"])
    #expect(harness.server.requests(to: "/feed/c.json").count > asked)
    // Asked again once the pause is over, and failing: said again.
    let refreshed = harness.server.requests(to: "/feed/c.json").count
    let again = await sync(3_660 + 481)
    #expect(again.err.contains("c        failed: answered HTTP 500"), "\(again.err)")
    #expect(harness.server.requests(to: "/feed/c.json").count > refreshed)
  }

  @Test("2 failures: left alone 2 minutes, said; then asked again; --refresh asks at once")
  func backoff() async throws {
    let harness = try Harness()
    harness.server.route("/feed/a.json", .fixture("source_a.readme-sample.json"))
    harness.server.route("/feed/b.json", .fixture("source_b.readme-sample.json"))
    harness.server.route("/feed/c.json", .json("", status: 500))
    harness.server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    harness.server.route("/articles", .fixture("articles.json"))
    harness.server.route("/bbc.json", .fixture("headlines.json"))
    let environment: [String: String?] = ["NEWS_RETRY_DELAY": "0", "NEWS_FEED_C_TTL": "1"]
    let start = Date(timeIntervalSince1970: 1_645_120_000)
    func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }
    func asked() -> Int { harness.server.requests(to: "/feed/c.json").count }
    _ = await harness.run(["sync"], environment: environment, now: at(0))
    _ = await harness.run(["sync"], environment: environment, now: at(3_600))
    let failing = asked()
    #expect(failing >= 2)
    // Two failures in a row: not asked before 2 minutes after the last.
    let paused = await harness.run(["feed"], environment: environment, now: at(3_660))
    #expect(asked() == failing)
    // Said in the one line of the sources failing run after run.
    #expect(paused.err.contains("1 source failing since 1h ago (c)"), "\(paused.err)")
    // Its report says when it is asked again, in words and as a time.
    let report = try await harness.run(
      ["feed", "--json"], environment: environment, now: at(3_660)
    )
    .json()
    let sources = try #require(report["sources"] as? [[String: Any]])
    let error = try #require(sources.first { $0["name"] as? String == "c" }?["error"] as? String)
    #expect(
      error == "source c answered HTTP 500 (internal server error) after 4 attempts; failing run "
        + "after run, asked again in 1m, at 2022-02-17T18:48:40Z ('news feed --refresh' asks now)",
      "\(error)")
    // Asked for alone, it is all there is: its reason is said, not folded into one line.
    let alone = await harness.run(
      ["feed", "--source", "c"], environment: environment, now: at(3_660))
    #expect(alone.code == .unavailable)
    #expect(
      alone.err.hasPrefix("news: source c answered HTTP 500 (internal server error)"),
      "\(alone.err)")
    #expect(asked() == failing)
    _ = await harness.run(["feed"], environment: environment, now: at(3_600 + 121))
    #expect(asked() > failing)
    let after = asked()
    _ = await harness.run(["feed", "--refresh"], environment: environment, now: at(3_600 + 122))
    #expect(asked() > after, "--refresh asks a backed-off source at once")
    #expect(FeedService.failureBackoff(1) == nil)
    #expect(FeedService.failureBackoff(2) == 120)
    #expect(FeedService.failureBackoff(40) == 21_600.0)
  }
}
