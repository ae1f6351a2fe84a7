import Foundation
import TestSupport
import Testing

@testable import NewsCore

/// `news import newsboat`: a newsboat setup with every kind of `urls` line and the `config`
/// directives, carried or listed with why; a dry run changes nothing; twice adds nothing.
@Suite("import newsboat")
struct ImportNewsboatTests {
  let harness: Harness
  let directory: String

  init() throws {
    harness = try Harness()
    directory = harness.home.path("newsboat-home/.newsboat")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try """
    # my feeds
    https://lwn.net/headlines/rss "linux" "~LWN" "~Linux Weekly News" # weekly, mostly
    https://example.com/blog.xml tech "daily reads" "!hide"
    "query:Fresh tech:unread = \\"yes\\" and tags # \\"tech\\""
    "query:Feeds:feed_title = \\"LWN\\""
    "exec:~/bin/site-to-rss.sh" "~Site"
    "filter:~/bin/fix.sh:https://broken.example/feed"
    gopher://old.example/feed
    """.write(toFile: directory + "/urls", atomically: true, encoding: .utf8)
    try """
    reload-time 30  # half an hour
    max-items 50
    ignore-article "*" "title =~ \\"sponsored\\""
    ignore-article "https://lwn.net/headlines/rss" "author = \\"bot\\""
    ignore-article "*" "flags # \\"r\\""
    bind-key j down
    color listfocus yellow blue bold
    browser "firefox %u"
    freshrss-passwordeval "pass show rss"
    show-read-feeds no
    include extra
    """.write(toFile: directory + "/config", atomically: true, encoding: .utf8)
    try "notify-program ~/bin/notify.sh\n".write(
      toFile: directory + "/extra", atomically: true, encoding: .utf8)
  }

  func sources() async throws -> [[String: Any]] {
    try #require(
      try await harness.run(["sources", "--json"]).json()["sources"] as? [[String: Any]])
  }

  @Test("a dry run plans every line, carried or not with why, and changes nothing")
  func dryRun() async throws {
    let before = try await sources().count
    let result = await harness.run(["import", "newsboat", directory, "--dry-run", "--json"])
    #expect(result.code == .success, "\(result.err)")
    let plan = try result.json()
    #expect(plan["dryRun"] as? Bool == true)
    #expect(plan["sources"] as? Int == 4)
    #expect(plan["savedSearches"] as? Int == 1)
    #expect(plan["ignoreRules"] as? Int == 2)
    let lines = try #require(plan["lines"] as? [[String: Any]])
    func line(_ file: String, _ number: Int) -> [String: Any]? {
      lines.first { $0["file"] as? String == file && $0["line"] as? Int == number }
    }
    #expect(line("urls", 2)?["as"] as? String == "source lwn, tags linux")
    #expect(
      line("urls", 3)?["as"] as? String
        == "source example-com, tags tech, daily reads, hidden (found by queries and tag lists, "
        + "not in the plain feed)")
    #expect(
      line("urls", 4)?["as"] as? String == "saved search fresh-tech: (is:unread) AND (tag:tech)")
    #expect(
      (line("urls", 5)?["why"] as? String)?.contains("'feed_title =' has no counterpart") == true)
    #expect(line("urls", 6)?["as"] as? String == "source site (exec)")
    #expect((line("urls", 8)?["why"] as? String)?.contains("is not an http(s) URL") == true)
    #expect(line("config", 6)?["as"] as? String == "key j: down on home, list, article")
    #expect(line("config", 7)?["as"] as? String == "colours of selection")
    #expect((line("config", 8)?["as"] as? String)?.hasPrefix("command browser, bound to o") == true)
    #expect(line("config", 9)?["text"] as? String == "freshrss-passwordeval …", "never the command")
    #expect(line("config", 10)?["why"] as? String == "news has no such setting")
    #expect(
      line("extra", 1)?["as"] as? String
        == #"newItem hook: ~/bin/notify.sh "$NEWS_ITEM_SOURCE: $NEWS_ITEM_TITLE" (once a new item, where newsboat says a reload's count)"#
    )
    #expect(lines.count == 7 + 11 + 1, "every line but the comment")
    #expect(try await sources().count == before, "nothing changed")
    let text = await harness.run(["import", "newsboat", directory, "--dry-run"])
    #expect(
      text.out.hasPrefix(
        "would import from \(directory): 4 sources, 3 tags, 1 saved search, 2 ignore rules, "
          + "5 keys, 1 colour, 0 highlights, 1 command, 0 articles' state"), "\(text.out)")
    #expect(text.out.contains("config:6: key j: down on home, list, article"), "\(text.out)")
  }

  @Test("the import writes config.json; a second one adds nothing")
  func imports() async throws {
    let result = await harness.run(["import", "newsboat", directory])
    #expect(result.code == .success, "\(result.err)")
    #expect(result.out.hasPrefix("imported from \(directory): 4 sources"), "\(result.out)")
    let all = try await sources()
    let lwn = try #require(all.first { $0["name"] as? String == "lwn" })
    #expect(lwn["tags"] as? [String] == ["linux"])
    #expect(lwn["ttl"] as? Int == 1800)
    #expect(lwn["maxItems"] as? Int == 50)
    #expect(lwn["title"] as? String == "LWN", "newsboat's ~title, kept: exports and apps show it")
    #expect(
      all.first { $0["name"] as? String == "fresh-tech" }?["search"] as? String
        == "(is:unread) AND (tag:tech)")
    #expect(all.contains { $0["name"] as? String == "site" })
    #expect(all.first { $0["name"] as? String == "example-com" }?["hidden"] as? Bool == true)
    #expect(lwn["hidden"] as? Bool == false)
    // Hidden: not in the plain feed, in its tag's list.
    func listed(_ arguments: [String]) async throws -> [String] {
      let feed = try await harness.run(["feed", "--offline", "--json"] + arguments).json()
      return (feed["sources"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }
    #expect(try await !listed([]).contains("example-com"))
    #expect(try await listed(["--tag", "tech"]) == ["example-com"])
    #expect(
      all.first { $0["name"] as? String == "broken-example" }?["url"] as? String
        == "https://broken.example/feed")
    let files = try FileManager.default.subpathsOfDirectory(atPath: harness.home.path(""))
    let config = try #require(files.first { $0.hasSuffix("config.json") })
    let written = try String(contentsOfFile: harness.home.path(config), encoding: .utf8)
    #expect(
      written.contains(
        #""hooks": {"newItem": "~/bin/notify.sh \"$NEWS_ITEM_SOURCE: $NEWS_ITEM_TITLE\""}"#),
      "\(written)")
    let rules = try await harness.run(["ignore", "--json"]).json()
    let listed = try #require(rules["rules"] as? [[String: Any]])
    #expect(listed.count == 2)

    let again = await harness.run(["import", "newsboat", directory, "--json"])
    #expect(again.code == .success)
    let plan = try again.json()
    #expect(plan["sources"] as? Int == 0)
    #expect(plan["savedSearches"] as? Int == 0)
    #expect(plan["existing"] as? Int == 8, "sources, a search, keys, a colour, a command")
    #expect(try await sources().count == all.count)
  }

  @Test("without DIR: ~/.newsboat, else $XDG_CONFIG_HOME/newsboat; none is exit 64 naming both")
  func defaultDirectory() async throws {
    let home = harness.home.path("newsboat-home")
    let found = await harness.run(
      ["import", "newsboat", "--dry-run"], environment: ["HOME": home])
    #expect(found.code == .success, "\(found.err)")
    #expect(found.out.contains("from \(directory)"))
    let empty = harness.home.path("nobody")
    let missing = await harness.run(
      ["import", "newsboat"], environment: ["HOME": empty, "XDG_CONFIG_HOME": empty + "/cfg"])
    #expect(missing.code == .usage)
    #expect(
      missing.err.contains(
        "no newsboat directory: looked in \(empty)/.newsboat and \(empty)/cfg/newsboat"),
      "\(missing.err)")
    #expect(await harness.run(["import"]).code == .usage)
  }

  @Test("an include of ~/ is in the home directory, as newsboat reads it; one not there is said")
  func includeFromHome() async throws {
    let home = harness.home.path("newsboat-home")
    try "include ~/shared-config\ninclude ~/missing\n".write(
      toFile: directory + "/config", atomically: true, encoding: .utf8)
    try "max-items 7\n".write(
      toFile: home + "/shared-config", atomically: true, encoding: .utf8)
    let result = await harness.run(
      ["import", "newsboat", "--dry-run", "--json"], environment: ["HOME": home])
    #expect(result.code == .success, "\(result.err)")
    let lines = try #require(result.json()["lines"] as? [[String: Any]])
    func outcome(_ file: String, _ number: Int) -> String? {
      let line = lines.first { $0["file"] as? String == file && $0["line"] as? Int == number }
      return (line?["as"] ?? line?["why"]) as? String
    }
    #expect(outcome("config", 1) == "followed")
    #expect(outcome("~/shared-config", 1) == "maxItems 7 on the sources imported")
    #expect(outcome("config", 2) == "no such file: \(home)/missing")
  }

  /// newsboat's shaping lines, one of each kind and the ways they fall short.
  static let shapeConfig = #"""
    bind-key j down
    bind-key N toggle-article-read
    bind-key ^D pagedown articlelist
    bind-key A mark-feed-read feedlist
    bind-key x sort
    bind-key ENTER open tagselection
    unbind-key g
    unbind-key -a
    macro v set browser "mpv %u"; open-in-browser; set browser "firefox %u" -- "play in mpv"
    macro m toggle-article-read ; next-unread
    macro z set show-read-feeds no
    color listfocus black yellow bold
    color listnormal_unread color245 default bold blink
    color background default black
    color info default black
    highlight article "Swift|Linux" yellow default bold
    highlight articlelist "^\[ad\]" red default
    highlight feedlist "foo" red default
    highlight article "a+b" red default
    highlight-article "unread = "yes"" cyan default bold
    bookmark-cmd ~/bin/bookmark.sh
    bind-key b bookmark article
    bind-key N next-unread
    bind-key G end
    highlight all "newsboat" red
    color listfocus_unread black yellow
    """#

  @Test("keys, macros, colours, highlights and commands carried; what would not be read is said")
  func shape() async throws {
    try Self.shapeConfig.write(toFile: directory + "/config", atomically: true, encoding: .utf8)
    // config.json binds G already: it stays as written.
    try FileManager.default.createDirectory(
      atPath: harness.home.path("news"), withIntermediateDirectories: true)
    try #"{"keys": {"list": {"G": "top"}}, "sources": []}"#.write(
      toFile: harness.home.path("news/config.json"), atomically: true, encoding: .utf8)
    let result = await harness.run(["import", "newsboat", directory, "--json"])
    #expect(result.code == .success, "\(result.err)")
    let plan = try result.json()
    let lines = try #require(plan["lines"] as? [[String: Any]])
    func outcome(_ number: Int) -> String {
      let line = lines.first { $0["file"] as? String == "config" && $0["line"] as? Int == number }
      return (line?["as"] ?? line?["why"]) as? String ?? "(no line \(number))"
    }
    #expect(outcome(2) == "bound again by line 23 (the last wins, as in newsboat)")
    #expect(outcome(3) == "key ^D: page-down on list")
    #expect(outcome(4) == "mark-all-read does nothing on home")
    #expect(outcome(5).hasPrefix("news has no action like newsboat's sort"))
    #expect(outcome(6).hasPrefix("news has no tagselection screen"))
    #expect(outcome(9) == "command mpv, key ,v: command:mpv on list, article")
    #expect(outcome(10) == "key ,m: toggle-read, next-unread on list, article")
    #expect(outcome(11).hasPrefix("its step 'set show-read-feeds' changes a setting"))
    #expect(outcome(12) == "news has one colour for listfocus and listfocus_unread: line 26's")
    #expect(outcome(13) == "colours of unread (blink: no such attribute here)")
    #expect(outcome(14).hasPrefix("news draws on the terminal's own background"))
    #expect(outcome(17) == #"highlight of list rows whose title:/^\[ad\]/"#)
    #expect(outcome(19).hasPrefix("news highlights whole words"))
    #expect(outcome(20) == "highlight of list rows matching is:unread")
    #expect(outcome(22) == "key b: command:bookmark on article")
    #expect(outcome(24) == "key G: bottom on home, list, article (config.json's own stays: list)")
    // newsboat's own example: the background left out is its default.
    #expect(
      outcome(25) == "highlight of words in articles and list rows whose title:/newsboat/")
    #expect(plan["commands"] as? Int == 2)
    #expect(plan["highlights"] as? Int == 5)

    // What was written is read by every command: the keys are in force.
    let keys = await harness.run(["keys", "--json"])
    #expect(keys.code == .success, "\(keys.err)")
    let bindings = try #require(keys.json()["bindings"] as? [[String: Any]])
    func actions(_ screen: String, _ key: String) -> [String]? {
      bindings.first { $0["screen"] as? String == screen && $0["keys"] as? String == key }?[
        "actions"] as? [String]
    }
    #expect(actions("list", ",v") == ["command:mpv"])
    #expect(actions("article", "C-b") == ["command:bookmark"])
    #expect(actions("home", "N") == ["next-unread"])
    #expect(actions("list", "G") == ["top"], "config.json's own binding kept")

    let again = await harness.run(["import", "newsboat", directory, "--json"])
    let second = try again.json()
    #expect(second["keys"] as? Int == 0)
    #expect(second["commands"] as? Int == 0)
    #expect(second["highlights"] as? Int == 0, "twice adds nothing")
  }

  /// An RSS feed of `items` served at `/<name>.xml` and subscribed as `name`, the one feed of
  /// newsboat's `urls`, beside a `cache.db` of ``writeCache(at:blog:gone:)``'s rows: its address,
  /// and the cache to add its rows to.
  func subscribed(_ name: String, title: String, items: [String]) async throws -> (
    String, SQLiteDatabase
  ) {
    harness.server.route(
      "/\(name).xml",
      LoopbackServer.Response(
        headers: ["Content-Type": "application/rss+xml"],
        body: Data(
          #"<rss version="2.0"><channel><title>\#(title)</title>\#(items.joined())</channel></rss>"#
            .utf8)))
    let url = harness.server.baseURL.absoluteString + "/\(name).xml"
    #expect(await harness.run(["sources", "add", url, "--name", name]).code == .success)
    try "\(url)\n".write(toFile: directory + "/urls", atomically: true, encoding: .utf8)
    try "".write(toFile: directory + "/config", atomically: true, encoding: .utf8)
    try Self.writeCache(at: directory + "/cache.db", blog: "https://none.example/feed")
    return (url, try SQLiteDatabase(path: directory + "/cache.db", creating: true))
  }

  /// newsboat's schema (cache.cpp) and rows of each kind.
  static func writeCache(at path: String, blog: String, gone: String = "https://gone.example/feed")
    throws
  {
    let database = try SQLiteDatabase(path: path, creating: true)
    try database.execute(
      """
      CREATE TABLE rss_feed (rssurl VARCHAR(1024) PRIMARY KEY NOT NULL, url VARCHAR(1024) NOT NULL,
        title VARCHAR(1024) NOT NULL, lastmodified INTEGER(11) NOT NULL DEFAULT 0,
        is_rtl INTEGER(1) NOT NULL DEFAULT 0, etag VARCHAR(128) NOT NULL DEFAULT "");
      CREATE TABLE rss_item (id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
        guid VARCHAR(64) NOT NULL, title VARCHAR(1024) NOT NULL, author VARCHAR(1024) NOT NULL,
        url VARCHAR(1024) NOT NULL, feedurl VARCHAR(1024) NOT NULL, pubDate INTEGER NOT NULL,
        content VARCHAR(65535) NOT NULL, unread INTEGER(1) NOT NULL,
        enclosure_url VARCHAR(1024), enclosure_type VARCHAR(1024),
        enqueued INTEGER(1) NOT NULL DEFAULT 0, flags VARCHAR(52),
        deleted INTEGER(1) NOT NULL DEFAULT 0, base VARCHAR(128) NOT NULL DEFAULT "",
        content_mime_type VARCHAR(255) NOT NULL DEFAULT "",
        enclosure_description VARCHAR(1024) NOT NULL DEFAULT "",
        enclosure_description_mime_type VARCHAR(128) NOT NULL DEFAULT "");
      INSERT INTO rss_item (guid, title, author, url, feedurl, pubDate, content, unread, flags)
      VALUES
        ('g1', 'Read here', '', 'http://example.com/blog/this_is_an_item.html', '\(blog)',
         1700000000, '', 0, ''),
        ('g2', 'Old &amp; starred', 'Ann', 'https://gone.example/old-1',
         '\(gone)', 1600000000, '<p>Kept <b>text</b></p>', 0, 's'),
        ('g3', 'Old, unread', '', 'https://gone.example/old-2', '\(gone)',
         1600000100, '', 1, NULL),
        ('g4', 'Of no source', '', 'https://elsewhere.example/x', 'https://unknown.example/feed',
         1600000200, '', 0, '');
      INSERT INTO rss_item (guid, title, author, url, feedurl, pubDate, content, unread, deleted)
      VALUES ('g5', 'Deleted', '', 'https://gone.example/deleted', 'https://gone.example/feed',
        1600000300, '', 0, 1);
      """)
  }

  @Test("a bare address is shown by its feed's own title and site once fetched; a ~title stays")
  func feedTitles() async throws {
    harness.server.route("/blog.xml", .fixture("feeds/rss20_1.xml"))
    harness.server.route("/named.xml", .fixture("feeds/rss20_1.xml"))
    let base = harness.server.baseURL.absoluteString
    try "\(base)/blog.xml\n\(base)/named.xml \"~Mine\"\n".write(
      toFile: directory + "/urls", atomically: true, encoding: .utf8)
    try "".write(toFile: directory + "/config", atomically: true, encoding: .utf8)
    let imported = await harness.run(["import", "newsboat", directory])
    #expect(imported.code == .success)
    #expect(
      imported.out.hasSuffix(
        "the demo sources a, b, c, articles, bbc are on too (their hosts may be gone): "
          + "for name in a b c articles bbc; do news sources set $name --disable; done\n"),
      "\(imported.out)")
    func described() async throws -> [String: [String: Any]] {
      Dictionary(
        try await sources().compactMap { row in
          (row["url"] as? String).map { ($0, row) }
        }
      ) { first, _ in first }
    }
    // Not fetched yet: nothing known but the address.
    #expect(try await described()["\(base)/blog.xml"]?["title"] is NSNull)
    #expect(await harness.run(["feed", "--source", "127-0-0-1-blog"]).code == .success)
    #expect(await harness.run(["feed", "--source", "mine"]).code == .success)
    let rows = try await described()
    #expect(rows["\(base)/blog.xml"]?["title"] as? String == "my weblog")
    #expect(rows["\(base)/blog.xml"]?["site"] as? String == "http://example.com/blog/")
    #expect(rows["\(base)/named.xml"]?["title"] as? String == "Mine", "newsboat's ~title wins")
    let text = await harness.run(["sources"])
    #expect(text.out.contains("my weblog · detected"), "\(text.out)")
    let exported = await harness.run(["sources", "export"]).out
    #expect(
      exported.contains(
        #"text="my weblog" title="my weblog" xmlUrl="\#(base)/blog.xml" htmlUrl="http://example.com/blog/""#
      ), "\(exported)")
    #expect(exported.contains(#"text="Mine" title="Mine" xmlUrl="\#(base)/named.xml""#))
  }

  @Test(
    "cache.db: read and flagged state carried, the articles the feeds no longer list kept",
    .enabled(if: SQLiteDatabase.isAvailable, "the system's SQLite library (libsqlite3) is missing"))
  func cache() async throws {
    harness.server.route("/blog.xml", .fixture("feeds/rss20_1.xml"))
    let blog = harness.server.baseURL.absoluteString + "/blog.xml"
    #expect(await harness.run(["sources", "add", blog, "--name", "blog"]).code == .success)
    // A feed:// address (as some subscribe buttons give), in urls and in cache.db alike.
    try "\(blog)\nfeed://gone.example/feed\n".write(
      toFile: directory + "/urls", atomically: true, encoding: .utf8)
    try "".write(toFile: directory + "/config", atomically: true, encoding: .utf8)
    try Self.writeCache(at: directory + "/cache.db", blog: blog, gone: "feed://gone.example/feed")

    let dry = try await harness.run(["import", "newsboat", directory, "--dry-run", "--json"]).json()
    #expect(dry["articles"] as? Int == 4, "the deleted row is left out")
    #expect(dry["state"] is NSNull)
    let line = (dry["lines"] as? [[String: Any]])?.first { $0["file"] as? String == "cache.db" }
    #expect(
      line?["as"] as? String
        == "4 articles' state: 3 read, 1 flagged (bookmarked here); those not here kept"
    )

    let result = await harness.run(["import", "newsboat", directory])
    #expect(result.code == .success, "\(result.err)")
    #expect(
      result.out.contains(
        "cache.db: 2 articles marked read, 1 bookmarked, 2 kept that were not here, "
          + "1 left out (their feed is no source)"), "\(result.out)")
    // Never fetched yet, its history is in the store: searched, listed, bookmarked.
    let gone =
      try await harness.run(["search", "source:gone-example", "--json"])
      .json()["articles"] as? [[String: Any]]
    #expect(
      Set(gone?.compactMap { $0["title"] as? String } ?? []) == ["Old & starred", "Old, unread"])
    #expect(gone?.first { $0["title"] as? String == "Old & starred" }?["read"] as? Bool == true)
    #expect(gone?.first { $0["title"] as? String == "Old, unread" }?["read"] as? Bool == false)
    let blogItems =
      try await harness.run(["feed", "--offline", "--source", "blog", "--json"])
      .json()["items"] as? [[String: Any]]
    #expect(blogItems?.first?["read"] as? Bool == true, "read in newsboat, read here")
    let bookmarks = try await harness.run(["bookmarks", "--json"]).json()
    #expect(
      (bookmarks["articles"] as? [[String: Any]])?.map { $0["title"] as? String } == [
        "Old & starred"
      ])

    let again = try await harness.run(["import", "newsboat", directory, "--json"]).json()
    let state = again["state"] as? [String: Any]
    #expect(state?["kept"] as? Int == 0)
    #expect(state?["bookmarked"] as? Int == 0, "twice adds nothing")
  }

  @Test(
    "cache.db: episodes sharing a link each carry their own state to the feed's items",
    .enabled(if: SQLiteDatabase.isAvailable, "the system's SQLite library (libsqlite3) is missing"))
  func sharedLinks() async throws {
    // A podcast whose episodes all link to the show's page.
    let episodes = [("p2", "Episode two"), ("p1", "Episode one")].map { guid, title in
      "<item><title>\(title)</title><guid>\(guid)</guid><link>https://show.example/</link></item>"
    }
    let (show, database) = try await subscribed("show", title: "Show", items: episodes)
    try database.execute(
      """
      INSERT INTO rss_item (guid, title, author, url, feedurl, pubDate, content, unread, flags)
      VALUES ('p1', 'Episode one', '', 'https://show.example/', '\(show)', 1700000000, '', 0, 'f'),
        ('p2', 'Episode two', '', 'https://show.example/', '\(show)', 1700000100, '', 1, '');
      """)

    let result = await harness.run(["import", "newsboat", directory])
    #expect(result.code == .success, "\(result.err)")
    let items = try #require(
      try await harness.run(["feed", "--offline", "--source", "show", "--json"]).json()["items"]
        as? [[String: Any]])
    let read = Dictionary(
      uniqueKeysWithValues: items.compactMap { item in
        (item["title"] as? String).map { ($0, item["read"] as? Bool ?? false) }
      })
    #expect(read == ["Episode one": true, "Episode two": false], "\(items)")
    let bookmarks = try await harness.run(["bookmarks", "--json"]).json()
    #expect(
      (bookmarks["articles"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
        == ["Episode one"])
  }

  @Test(
    "cache.db: episodes without a link carry their state by guid, an old one kept with its file",
    .enabled(if: SQLiteDatabase.isAvailable, "the system's SQLite library (libsqlite3) is missing"))
  func episodesWithoutLinks() async throws {
    // A podcast whose episodes have no <link>: newsboat keeps their url empty.
    let episodes = [("p2", "Episode two"), ("p1", "Episode one")].map { guid, title in
      "<item><title>\(title)</title><guid isPermaLink=\"false\">\(guid)</guid>"
        + "<enclosure url=\"https://cdn.example/\(guid).mp3\" type=\"audio/mpeg\"/></item>"
    }
    let (pod, database) = try await subscribed("pod", title: "Pod", items: episodes)
    try database.execute(
      """
      INSERT INTO rss_item (guid, title, author, url, feedurl, pubDate, content, unread, flags,
        enclosure_url, enclosure_type)
      VALUES ('p1', 'Episode one', '', '', '\(pod)', 1700000000, '', 0, '',
          'https://cdn.example/p1.mp3', 'audio/mpeg'),
        ('p2', 'Episode two', '', '', '\(pod)', 1700000100, '', 1, 's',
          'https://cdn.example/p2.mp3', 'audio/mpeg'),
        ('p0', 'Episode zero', '', '', '\(pod)', 1600000000, '', 0, '',
          'https://cdn.example/p0.mp3', 'audio/mpeg'),
        ('x', 'Of no source', '', '', 'https://unknown.example/feed', 1600000000, '', 0, '', '', '');
      """)

    let result = await harness.run(["import", "newsboat", directory])
    #expect(result.code == .success, "\(result.err)")
    #expect(
      result.out.contains("cache.db: 2 articles marked read, 1 bookmarked, 1 kept"), "\(result.out)"
    )
    let items = try #require(
      try await harness.run(["search", "source:pod", "--json"]).json()["articles"]
        as? [[String: Any]])
    let read = Dictionary(
      uniqueKeysWithValues: items.compactMap { item in
        (item["title"] as? String).map { ($0, item["read"] as? Bool ?? false) }
      })
    #expect(
      read == ["Episode zero": true, "Episode one": true, "Episode two": false], "\(items)")
    let bookmarks = try await harness.run(["bookmarks", "--json"]).json()
    #expect(
      (bookmarks["articles"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
        == ["Episode two"])
    // The episode the feed no longer lists is kept with its file, to play or download.
    let zero = try #require(
      items.first { $0["title"] as? String == "Episode zero" }?["id"] as? String)
    let shown = try await harness.run(["show", zero, "--offline", "--json"]).json()
    let files = shown["enclosures"] as? [[String: Any]]
    #expect(files?.map { $0["url"] as? String } == ["https://cdn.example/p0.mp3"])
    #expect(files?.first?["type"] as? String == "audio/mpeg")
  }

  @Test("a cache.db that is not SQLite's is a line not carried, the rest imported")
  func brokenCache() async throws {
    try "not a database".write(toFile: directory + "/cache.db", atomically: true, encoding: .utf8)
    let result = await harness.run(["import", "newsboat", directory, "--json"])
    #expect(result.code == .success, "\(result.err)")
    let plan = try result.json()
    #expect(plan["sources"] as? Int == 4)
    let line = (plan["lines"] as? [[String: Any]])?.first { $0["file"] as? String == "cache.db" }
    #expect(line?["carried"] as? Bool == false)
    #expect(
      (line?["why"] as? String)?.hasSuffix("its read and flagged state is not carried") == true)
  }

  @Test("$XDG_CONFIG_HOME/newsboat keeps cache.db in $XDG_DATA_HOME/newsboat")
  func cachePlace() {
    let environment = ["HOME": "/h", "XDG_CONFIG_HOME": "/c", "XDG_DATA_HOME": "/d"]
    #expect(
      NewsboatImport.cachePath(for: "/c/newsboat", environment: environment)
        == "/d/newsboat/cache.db")
    #expect(
      NewsboatImport.cachePath(for: "/h/.newsboat", environment: environment)
        == "/h/.newsboat/cache.db")
    #expect(
      NewsboatImport.cachePath(for: "/h/.config/newsboat", environment: ["HOME": "/h"])
        == "/h/.local/share/newsboat/cache.db")
  }

  @Test(
    "urls-source: the account to add, as the command that adds it; never a password",
    arguments: [
      (
        "urls-source \"ttrss\"\nttrss-url \"https://rss.example.com/tt-rss/\"\nttrss-login \"ann\"\n"
          + "ttrss-passwordfile \"~/.ttrss-pass\"\n",
        "an account to add (the password read from newsboat's file): news accounts add ttrss "
          + "--ttrss https://rss.example.com/tt-rss/ --user ann --password-file ~/.ttrss-pass"
      ),
      (
        "urls-source ocnews\nocnews-url https://cloud.example/\nocnews-login ann\n"
          + "ocnews-passwordeval \"pass show cloud\"\n",
        "an account to add (the password: what ocnews-passwordeval's command prints, asked when "
          + "you add it): news accounts add nextcloud --nextcloud https://cloud.example/ --user ann"
      ),
      ("urls-source inoreader\n", "news speaks no inoreader protocol (docs/accounts.md)"),
      ("urls-source freshrss\n", "freshrss-url is missing: the server is not known"),
    ])
  func urlsSource(config: String, outcome: String) async throws {
    try config.write(toFile: directory + "/config", atomically: true, encoding: .utf8)
    let result = await harness.run(["import", "newsboat", directory, "--dry-run", "--json"])
    let lines = try #require(try result.json()["lines"] as? [[String: Any]])
    let line = lines.first { $0["file"] as? String == "config" && $0["line"] as? Int == 1 }
    #expect(line?["why"] as? String == outcome)
    #expect(!result.out.contains("pass show"), "a password's command is never printed")
  }
}
