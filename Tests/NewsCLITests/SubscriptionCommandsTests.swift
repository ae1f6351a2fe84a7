import FeedParsing
import Foundation
import NewsCore
import TestSupport
import Testing

@Suite("news sources add, remove, import, export")
struct SubscriptionCommandsTests {
  let harness: Harness
  var configPath: String { harness.home.path("news/config.json") }

  init() throws {
    harness = try Harness()
    harness.server.route("/blog.xml", .fixture("feeds/rss20_1.xml"))
    harness.server.route("/atom.xml", .fixture("feeds/atom10_1.xml"))
    harness.server.route(
      "/page.html",
      LoopbackServer.Response(
        headers: ["Content-Type": "text/html"],
        body: Data(
          #"<html><head><link rel="alternate" type="application/atom+xml" href="/atom.xml"></head></html>"#
            .utf8)))
  }

  func config() throws -> String { try String(contentsOfFile: configPath, encoding: .utf8) }

  @Test("add: a feed is subscribed under a name from its title, written to config.json")
  func addFeed() async throws {
    let base = harness.server.baseURL.absoluteString
    let result = await harness.run(["sources", "add", base + "/blog.xml", "--ttl", "600"])
    #expect(result.code == .success)
    #expect(result.out == "added: my-weblog (\(base)/blog.xml) · my weblog · 1 item\n")
    #expect(
      try config().contains(
        #"{"name":"my-weblog","url":"\#(base)/blog.xml","title":"my weblog","ttl":600,"site":"http://example.com/blog/"}"#
      ))
    let listed = await harness.run(["sources", "--json"])
    let all = try #require(try listed.json()["sources"] as? [[String: Any]])
    #expect(all.prefix(3).map { $0["name"] as? String } == ["newsapi", "articles", "bbc"])
    let sources = Array(all.dropFirst(3))
    #expect(sources.map { $0["name"] as? String } == ["a", "b", "c", "my-weblog"])
    #expect(sources[3]["ttl"] as? Int == 600)
    // What it fetched is kept: fetched, listed offline and searchable, with no other request.
    #expect(sources[3]["status"] as? String == "fetched")
    let offline = await harness.run(["feed", "--offline", "--source", "my-weblog", "--json"])
    #expect((try offline.json()["items"] as? [[String: Any]])?.count == 1, "\(offline.err)")
    // The same URL again adds nothing.
    let again = await harness.run(["sources", "add", base + "/blog.xml/"])
    #expect(again.code == .success)
    #expect(again.out.hasPrefix("already subscribed: my-weblog"))
    #expect(harness.server.requests(to: "/blog.xml").count == 1)
  }

  @Test("add with --name can be run again: the second run says it is subscribed, exit 0")
  func addWithNameTwice() async throws {
    let base = harness.server.baseURL.absoluteString
    let arguments = ["sources", "add", base + "/blog.xml", "--name", "blog"]
    let first = await harness.run(arguments)
    #expect(first.code == .success, "\(first.err)")
    let second = await harness.run(arguments)
    #expect(second.code == .success, "\(second.err)")
    #expect(second.out == "already subscribed: blog (\(base)/blog.xml)\n")
    // A name taken by another URL is still refused, reachable or not.
    let taken = await harness.run(["sources", "add", base + "/page.html", "--name", "blog"])
    #expect(taken.code == .usage)
    let unreachable = await harness.run([
      "sources", "add", "http://127.0.0.1:1/x", "--name", "blog",
    ])
    #expect(unreachable.code == .usage)
    #expect(unreachable.err.contains("a source named 'blog' exists already"), "\(unreachable.err)")
  }

  @Test(
    "add: a feed moved for good is subscribed where it went; moved to a feed subscribed already, nothing is added; moved for now, the URL given is kept"
  )
  func moved() async throws {
    let base = harness.server.baseURL.absoluteString
    harness.server.route("/old.xml", .redirect(301, to: "/blog.xml"))
    harness.server.route("/for-now.xml", .redirect(302, to: "/atom.xml"))
    let arguments = ["sources", "add", base + "/old.xml", "--name", "blog"]
    let first = await harness.run(arguments)
    #expect(first.code == .success, "\(first.err)")
    #expect(
      first.out == "added: blog (\(base)/blog.xml) · my weblog · 1 item\n"
        + "\(base)/old.xml moved permanently: subscribed where it went\n")
    #expect(try config().contains(#""url":"\#(base)/blog.xml""#))
    #expect(try !config().contains("old.xml"))
    // Again, by the old URL and the same name: the feed it moved to is this one.
    let second = await harness.run(arguments)
    #expect(second.code == .success, "\(second.err)")
    #expect(second.out == "already subscribed: blog (\(base)/blog.xml)\n")
    let temporary = await harness.run(["sources", "add", base + "/for-now.xml"])
    #expect(temporary.code == .success, "\(temporary.err)")
    #expect(temporary.out.hasPrefix("added: test-atom (\(base)/for-now.xml) · test atom"))
    harness.server.route("/blog-for-now.xml", .redirect(307, to: "/blog.xml"))
    let elsewhere = await harness.run(["sources", "add", base + "/blog-for-now.xml"])
    #expect(elsewhere.out == "already subscribed: blog (\(base)/blog.xml)\n")
    #expect(try !config().contains("blog-for-now"))
  }

  @Test(
    "remove --forget forgets its stored articles but its bookmarks; a name removed before forgets what it left"
  )
  func removeForget() async throws {
    let base = harness.server.baseURL.absoluteString
    await harness.succeed(["sources", "add", base + "/atom.xml", "--name", "atom"])
    await harness.succeed(["sources", "add", base + "/blog.xml", "--name", "blog"])
    func found(_ query: String) async throws -> Int {
      try await harness.run(["search", query, "--json"]).json()["totalResults"] as? Int ?? -1
    }
    #expect(try await found("source:atom") == 3)
    _ = await harness.run(["search", "source:atom"])
    await harness.succeed(["bookmark", "1"])
    // Without --forget, they stay.
    await harness.succeed(["sources", "remove", "blog"])
    #expect(try await found("source:blog") == 1)
    let removed = await harness.run(["sources", "remove", "atom", "--forget"])
    #expect(
      removed.out == "removed: atom; 3 stored articles forgotten (bookmarks stay)\n",
      "\(removed.out)\(removed.err)")
    // The bookmarked one stays, and is still found.
    #expect(try await found("source:atom") == 1)
    #expect(await harness.run(["bookmarks"]).out.contains("1 of 1"))
    let left = await harness.run(["sources", "remove", "blog", "--forget"])
    #expect(left.out == "blog: not subscribed; 1 stored article forgotten (bookmarks stay)\n")
    #expect(try await found("source:blog") == 0)
    // A source with nothing stored (a saved search keeps none of its own) says so.
    await harness.succeed(["sources", "add", "--search", "x", "--name", "saved"])
    let empty = await harness.run(["sources", "remove", "saved", "--forget"])
    #expect(empty.out == "removed: saved; no stored article to forget\n", "\(empty.out)")
    let unknown = await harness.run(["sources", "remove", "blog", "--forget"])
    #expect(unknown.code == .usage)
    #expect(unknown.err.contains("no source named 'blog'"), "\(unknown.err)")
  }

  @Test("remove takes the source off the record of failing ones: added again, it starts afresh")
  func removeFailing() async throws {
    let base = harness.server.baseURL.absoluteString
    await harness.succeed(["sources", "add", base + "/blog.xml", "--name", "blog"])
    harness.server.route("/blog.xml", .json("", status: 500))
    for _ in 0..<2 {
      _ = await harness.run(
        ["feed", "--refresh", "--source", "blog"], environment: ["NEWS_RETRY_DELAY": "0"])
    }
    #expect(await harness.run(["sources", "--failing"]).out.hasPrefix("blog  failing since"))
    await harness.succeed(["sources", "remove", "blog"])
    harness.server.route("/blog.xml", .fixture("feeds/rss20_1.xml"))
    await harness.succeed(["sources", "add", base + "/blog.xml", "--name", "blog"])
    let failing = await harness.run(["sources", "--failing"])
    #expect(failing.out == "No source is failing.\n", "\(failing.out)")
  }

  @Test("add: a web page announcing a feed subscribes to its feed (discovery); --name wins")
  func discovery() async throws {
    let base = harness.server.baseURL.absoluteString
    let result = await harness.run(["sources", "add", base + "/page.html", "--name", "atom"])
    #expect(result.code == .success)
    #expect(result.out.hasPrefix("added: atom (\(base)/atom.xml) · test atom · 3 items"))
    let taken = await harness.run(["sources", "add", base + "/blog.xml", "--name", "atom"])
    #expect(taken.code == .usage)
    #expect(taken.err.contains("a source named 'atom' exists already"))
    let reserved = await harness.run(["sources", "add", base + "/blog.xml", "--name", "bbc"])
    #expect(reserved.code == .usage)
  }

  @Test("add: a page announcing several feeds takes the first and names the others, unasked")
  func severalAnnounced() async throws {
    harness.server.route(
      "/two.html",
      LoopbackServer.Response(
        headers: ["Content-Type": "text/html"],
        body: Data(
          (#"<link rel="alternate" type="application/rss+xml" href="/blog.xml">"#
            + #"<link rel="alternate" type="application/atom+xml" href="/comments.xml" "#
            + #"title=" Comments &amp; replies ">"#
            + #"<link rel="alternate" type="application/rss+xml" href="/more.xml">"#).utf8)))
    let base = harness.server.baseURL.absoluteString
    let result = await harness.run(["sources", "add", base + "/two.html"])
    #expect(result.code == .success, "\(result.err)")
    #expect(
      result.out.contains(
        "\nthe page announces 3 feeds; the first was taken, the others are "
          + "Comments & replies (\(base)/comments.xml), \(base)/more.xml "
          + "(news sources add <url> subscribes to one)\n"), "\(result.out)")
    #expect(!harness.server.requests.contains { $0.path == "/comments.xml" })
  }

  @Test("add: the rest of config.json stays as written")
  func keepsTheFile() async throws {
    let original = """
      {
        "sources": [
          {"name": "a", "ttl": 60}
        ],
        "_mine": {"x": [1, 2, 3]}
      }

      """
    try FileManager.default.createDirectory(
      atPath: harness.home.path("news"), withIntermediateDirectories: true)
    try original.write(toFile: configPath, atomically: true, encoding: .utf8)
    let base = harness.server.baseURL.absoluteString
    #expect(await harness.run(["sources", "add", base + "/blog.xml"]).code == .success)
    #expect(
      try config()
        == original.replacingOccurrences(
          of: #"{"name": "a", "ttl": 60}"#,
          with: #"{"name": "a", "ttl": 60},"# + "\n    "
            + #"{"name":"my-weblog","url":"\#(base)/blog.xml","title":"my weblog","site":"http://example.com/blog/"}"#
        ))
    #expect(await harness.run(["sources", "remove", "my-weblog"]).code == .success)
    #expect(try config() == original)
  }

  @Test("add: a page that is no feed and announces none is exit 65, and nothing is written")
  func notAFeed() async throws {
    harness.server.route(
      "/plain.html", LoopbackServer.Response(body: Data("<html><p>hello</p></html>".utf8)))
    let base = harness.server.baseURL.absoluteString
    let result = await harness.run(["sources", "add", base + "/plain.html"])
    #expect(result.code == .dataError)
    #expect(result.err.contains("is not a feed (RSS, Atom or JSON Feed) and announces none"))
    #expect(!FileManager.default.fileExists(atPath: configPath))
    // Served as a web page: how to read it as a feed all the same.
    harness.server.route(
      "/page-only.html",
      LoopbackServer.Response(
        headers: ["Content-Type": "text/html; charset=utf-8"],
        body: Data("<html><p>hello</p></html>".utf8)))
    let page = await harness.run(["sources", "add", base + "/page-only.html"])
    #expect(page.code == .dataError)
    #expect(
      page.err.contains(
        "page-only.html is a web page that announces no feed; to read the page as one, name its items: --items <selector>"
      ), "\(page.err)")
    #expect(!FileManager.default.fileExists(atPath: configPath))
    harness.server.route("/gone.xml", .json("{}", status: 404))
    let gone = await harness.run(["sources", "add", base + "/gone.xml"])
    #expect(gone.code == .unavailable)
    #expect(gone.err.contains("source \(base)/gone.xml answered HTTP 404"))
    let bad = await harness.run(["sources", "add", "ftp://example.com/feed"])
    #expect(bad.code == .usage)
  }

  @Test(
    "usage errors",
    arguments: [
      (["sources", "frobnicate"], "unknown action 'frobnicate'"),
      (["sources", "add"], "missing <url> after 'add'"),
      (["sources", "export", "x"], "unexpected argument 'x'"),
      (
        ["sources", "add", "hn", "https://example.com/rss"],
        "unexpected argument 'https://example.com/rss'; "
          + "did you mean 'https://example.com/rss --name hn'?"
      ),
      (
        ["sources", "remove", "a", "--ttl", "5"],
        "--ttl only applies to 'news sources add' and 'news sources set'"
      ),
      (["sources", "--name", "x"], "--name only applies to 'news sources add'"),
      (["sources", "import", "f", "--json"], "--json only applies to 'news sources'"),
      (["sources", "remove", "a"], "'a' is a built-in source and cannot be removed"),
      (["sources", "remove", "zz"], "no source named 'zz'"),
      (
        ["sources", "add", "https://example.com/feed", "--name", "Émission Ü"],
        "'Émission Ü' cannot name a source: use lower-case letters, digits and '-'; "
          + "did you mean 'emission-u'?"
      ),
      (
        ["sources", "add", "https://example.com/feed", "--name", "../"],
        "'../' cannot name a source: use lower-case letters, digits and '-' (see"
      ),
    ])
  func usage(arguments: [String], message: String) async {
    let result = await harness.run(arguments)
    #expect(result.code == .usage)
    #expect(result.err.contains(message))
  }

  @Test("import: OPML feeds are added once, with folders as tags; importing twice adds nothing")
  func importTwice() async throws {
    let file = try harness.home.write("feeds.opml", Fixtures.text("feeds/example.opml"))
    let first = await harness.run(["sources", "import", file])
    #expect(first.code == .success)
    // The demo sources, still on, are said with how to turn them off.
    #expect(
      first.out.hasSuffix(
        "imported 7 feeds\nthe demo sources a, b, c, articles, bbc are on too (their hosts may "
          + "be gone): for name in a b c articles bbc; do news sources set $name --disable; done\n"
      ), "\(first.out)")
    #expect(first.out.contains("added: notes-by-mike (https://blogs.example.com/~mike/.rss)"))
    let second = await harness.run(["sources", "import", file])
    #expect(second.out == "imported 0 feeds, 7 subscribed already\n")
    let listed = await harness.run(["sources", "--json"])
    let sources = try #require(try listed.json()["sources"] as? [[String: Any]]).filter {
      $0["format"] as? String != "provider"
    }
    #expect(sources.count == 10)
    #expect(
      sources.first { $0["name"] as? String == "notes-by-mike" }?["tags"] as? [String] == [
        "Blogs", "friends",
      ])
    // Each keeps the outline's title, which the export gives back.
    #expect(
      sources.first { $0["name"] as? String == "john-s-musings" }?["title"] as? String
        == "John's musings")
    // Export gives them back: the same URLs, readable by any OPML reader (and by us).
    let exported = await harness.run(["sources", "export"])
    #expect(exported.out.contains(#"text="John's musings" title="John's musings""#))
    #expect(exported.err.isEmpty, "every source went out: nothing to say")
    let back = try SubscriptionFile.parse(Data(exported.out.utf8)).subscriptions
    let original = try SubscriptionFile.parse(Fixtures.data("feeds/example.opml")).subscriptions
    #expect(Set(back.map(\.url)) == Set(original.map(\.url)))
    // And their tags (written as each outline's category).
    #expect(
      Dictionary(uniqueKeysWithValues: back.map { ($0.url, $0.tags) })
        == Dictionary(uniqueKeysWithValues: original.map { ($0.url, $0.tags) }))
  }

  @Test("import: the list from an http(s) address (fetched; its feeds not), or from standard input")
  func importFromAddressAndStandardInput() async throws {
    harness.server.route(
      "/blogroll.opml",
      LoopbackServer.Response(
        headers: ["Content-Type": "text/x-opml"], body: Fixtures.data("feeds/example.opml")))
    let base = harness.server.baseURL.absoluteString
    let fetched = await harness.run(["sources", "import", base + "/blogroll.opml"])
    #expect(fetched.code == .success, "\(fetched.err)")
    #expect(fetched.out.contains("imported 7 feeds"), "\(fetched.out)")
    #expect(harness.server.requests.map(\.path) == ["/blogroll.opml"], "the feeds are not asked")
    #expect(harness.server.requests.first?.headers["accept"]?.hasPrefix("text/x-opml") == true)
    harness.server.route("/gone.opml", .json("", status: 404))
    let gone = await harness.run(["sources", "import", base + "/gone.opml"])
    #expect(gone.code == .unavailable)
    #expect(gone.err.contains("\(base)/gone.opml answered HTTP 404"), "\(gone.err)")
    // The other way round: a list given to subscribe to.
    let list = await harness.run(["sources", "add", base + "/blogroll.opml"])
    #expect(list.code == .dataError)
    #expect(
      list.err.contains(
        "\(base)/blogroll.opml is a list of 7 feeds (OPML), not a feed (news sources import "
          + "\(base)/blogroll.opml subscribes to them)"), "\(list.err)")
    harness.server.route("/feed.xml", .fixture("feeds/rss20_1.xml"))
    let feed = await harness.run(["sources", "import", base + "/feed.xml"])
    #expect(feed.code == .dataError)
    #expect(
      feed.err.contains(
        "it is a feed (<rss>), not a list of feeds (news sources add \(base)/feed.xml subscribes "
          + "to it)"), "\(feed.err)")

    let piped = await harness.run(
      ["sources", "import", "-"],
      stdin: ["https://piped.example/feed.xml tech", "https://piped.example/other.xml"])
    #expect(piped.code == .success, "\(piped.err)")
    #expect(
      piped.out.contains("added: piped-example (https://piped.example/feed.xml)"),
      "\(piped.out)")
    #expect(piped.out.contains("imported 2 feeds"), "\(piped.out)")
  }

  @Test("import: feeds without a title sharing a host are named by their addresses' own words")
  func namesOfOneHost() async throws {
    let file = try harness.home.write(
      "urls",
      """
      https://www.reddit.com/r/swift/.rss
      https://www.reddit.com/r/linux/.rss
      https://feeds.feedburner.com/oreilly/radar
      https://feeds.feedburner.com/TechCrunch
      https://github.com/apple/swift-nio/releases.atom
      https://github.com/swiftlang/swift/releases.atom
      https://blog.example.com/feed/
      https://blog.example.com/comments/feed/
      https://www.youtube.com/feeds/videos.xml?channel_id=UCaaa
      https://www.youtube.com/feeds/videos.xml?channel_id=UCbbb
      https://lwn.net/headlines/rss
      https://feeds.arstechnica.com/arstechnica/index

      """)
    let result = await harness.run(["sources", "import", file])
    #expect(result.code == .success, "\(result.err)")
    let names = result.out.split(separator: "\n").compactMap { line in
      line.hasPrefix("added: ")
        ? line.dropFirst(7).split(separator: " ").first.map(String.init) : nil
    }
    #expect(
      names == [
        "reddit-com-r-swift", "reddit-com-r-linux", "feedburner-com-oreilly-radar",
        "feedburner-com-techcrunch", "github-com-apple-swift-nio", "github-com-swiftlang-swift",
        "blog-example-com", "blog-example-com-comments", "youtube-com-videos-ucaaa",
        "youtube-com-videos-ucbbb", "lwn-net", "arstechnica-com",
      ], "\(result.out)")
    // A later one of a host here already is named so too; the first keeps its name.
    let another = try harness.home.write("more", "https://lwn.net/Articles/feed\n")
    let more = await harness.run(["sources", "import", another])
    #expect(more.out.hasPrefix("added: lwn-net-articles "), "\(more.out)")
  }

  @Test("import: a feed in two folders of the file is one source filed under both")
  func twoFolders() async throws {
    let file = try harness.home.write(
      "feedly.opml",
      """
      <opml version="1.0"><body>
        <outline text="Tech"><outline type="rss" text="LWN" xmlUrl="https://lwn.example/rss" htmlUrl="https://lwn.example/"/></outline>
        <outline text="News &amp; Politics">
          <outline type="rss" text="LWN" xmlUrl="https://LWN.example/rss/"/>
        </outline>
      </body></opml>
      """)
    let result = await harness.run(["sources", "import", file])
    #expect(
      result.out.hasPrefix("added: lwn (https://lwn.example/rss)\nimported 1 feed\n"),
      "\(result.out)")
    #expect(
      try config().contains(
        #"{"name":"lwn","url":"https://lwn.example/rss","title":"LWN","tags":["Tech","News & Politics"],"site":"https://lwn.example/"}"#
      ))
    // Its site, as the file gave it, listed and exported again.
    let listed = try await harness.run(["sources", "--json"]).json()
    #expect(
      (listed["sources"] as? [[String: Any]])?.first { $0["name"] as? String == "lwn" }?["site"]
        as? String == "https://lwn.example/")
    #expect(
      await harness.run(["sources", "export"]).out.contains(#"htmlUrl="https://lwn.example/""#))
  }

  @Test(
    "import: a line that is no URL is skipped, said; a file of none is exit 65 naming the line; a missing one exit 74"
  )
  func importErrors() async throws {
    let none = try harness.home.write("none", "# not feeds\nnot a url\n")
    let refused = await harness.run(["sources", "import", none])
    #expect(refused.code == .dataError)
    #expect(refused.err.contains("line 2: 'not' is not an http(s) URL"), "\(refused.err)")
    #expect(!FileManager.default.fileExists(atPath: configPath))
    let file = try harness.home.write("urls", "https://ok.example/feed\nnot a url\n")
    let result = await harness.run(["sources", "import", file])
    #expect(result.code == .success)
    #expect(result.err.contains("line 2: 'not' is not an http(s) URL; skipped"), "\(result.err)")
    #expect(try config().contains("https://ok.example/feed"))
    let missing = await harness.run(["sources", "import", harness.home.path("nope")])
    #expect(missing.code == .ioError)
  }

  @Test("sources import refuses a file larger than 16 MiB unread (exit 65)")
  func importTooLarge() async throws {
    let path = harness.home.path("huge.opml")
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.truncate(atOffset: UInt64(16 << 20) + 1)
    try handle.close()
    let result = await harness.run(["sources", "import", path])
    #expect(result.code == .dataError)
    #expect(result.err.contains("larger than 16 MiB"), "\(result.err)")
  }
}

/// `sources`, `ignore` and `accounts` take their actions as typed subcommands.
@Suite("Subcommands")
struct SubcommandTests {
  @Test(
    "an action is a command of its own: its help, its options, its arguments",
    arguments: [
      (["help", "sources", "add"], "USAGE: news sources add [options] [<url>]"),
      (["sources", "set", "--help"], "USAGE: news sources set [options] <name>"),
      (["--help", "ignore", "remove"], "USAGE: news ignore remove <n>"),
      (["accounts", "--help"], "  test      Logs in, counts its feeds"),
    ])
  func help(arguments: [String], line: String) async throws {
    let result = try await Harness().run(arguments)
    #expect(result.code == .success)
    #expect(result.out.split(separator: "\n").contains { $0.hasPrefix(line) })
  }

  @Test(
    "a word that is not an action, or a value of the wrong kind, is a usage error naming it",
    arguments: [
      (
        ["sources", "ad", "x"],
        "unknown action 'ad'; the actions are add, remove, set, import, export; did you mean 'add'?"
      ),
      (["ignore", "remove", "0"], "<n> expects a whole number 1 or more, got '0'"),
      (["accounts", "lst"], "did you mean 'list'?"),
    ])
  func mistakes(arguments: [String], message: String) async throws {
    let result = try await Harness().run(arguments)
    #expect(result.code == .usage)
    #expect(result.err.contains(message), "\(result.err)")
    #expect(result.err.split(separator: "\n").count == 1)
  }
}
