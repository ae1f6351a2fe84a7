import FeedParsing
import Foundation
import NewsCore
import Synchronization
import TestSupport
import Testing

/// An account on a Google Reader API server (TestSupport's, following the protocol), end to end
/// through the command line: add, sync, read and saved state both ways, the queue of marks, a
/// stale edit token, a wrong password, a hanging server, incremental sync, removal.
@Suite("accounts: the Google Reader API")
struct GoogleReaderAccountTests {
  let harness: Harness
  let reader: GoogleReaderServer
  /// 2022-02-17, the harness's clock.
  let start = 1_645_120_000

  init() throws {
    harness = try Harness()
    reader = GoogleReaderServer(
      server: harness.server, user: "ann", password: "s3cret pass", maximumPage: 2)
    reader.add(.init(url: "https://news.example/rss", title: "Hacker News", folders: ["Tech"]))
    reader.add(.init(url: "https://blog.example/atom", title: "A Blog"))
    for (id, feed, title) in [
      (1 as UInt64, "https://news.example/rss", "First story"),
      (2, "https://news.example/rss", "Second story"),
      (3, "https://blog.example/atom", "A post"),
    ] {
      reader.add(
        .init(
          id: id, feedURL: feed, title: title, link: "https://site.example/\(id)",
          content: "<p>Body of <b>\(title)</b></p>", published: start - 3_600 + Int(id)))
    }
  }

  var password: [String: String?] { ["READER_PASSWORD": "s3cret pass"] }

  func add() async -> RunResult {
    await harness.run(
      [
        "accounts", "add", "home", "--greader", reader.url.absoluteString, "--user", "ann",
        "--password-env", "READER_PASSWORD",
      ], environment: password)
  }

  func items(_ arguments: [String], now: Date? = nil) async throws -> [[String: Any]] {
    let result = await harness.run(
      arguments + ["--json"], now: now ?? Date(timeIntervalSince1970: 1_645_120_000))
    #expect(result.code == .success, "\(result.err)")
    return try #require(try result.json()["items"] as? [[String: Any]])
  }

  func id(of title: String, in source: String) async throws -> String {
    let all = try await items(["feed", "--source", source])
    return try #require(all.first { $0["title"] as? String == title }?["id"] as? String)
  }

  @Test(
    "a newItem hook runs once for each item an account's sync brings the first time, none at its first"
  )
  func hooks() async throws {
    let added = await add()
    #expect(added.code == .success, "\(added.err)")
    let log = harness.home.path("hooked.log")
    let hook = "printf '%s|%s\\n' \"$NEWS_ITEM_SOURCE\" \"$NEWS_ITEM_TITLE\" >> \(log)"
    let first = await harness.run(["sync", "--account", "home", "--exec", hook])
    #expect(first.code == .success, "\(first.err)")
    func lines() -> [String] {
      ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
        .map(String.init).sorted()
    }
    // The first sync brings what the account held: no news, as a new subscription's items.
    #expect(lines().isEmpty)
    reader.add(
      .init(
        id: 4, feedURL: "https://blog.example/atom", title: "Another post",
        link: "https://site.example/4", content: "<p>More</p>", published: start))
    let second = await harness.run(["sync", "--account", "home", "--exec", hook])
    #expect(second.code == .success, "\(second.err)")
    #expect(lines() == ["home/a-blog|Another post"])
    // Once only.
    #expect(await harness.run(["sync", "--account", "home", "--exec", hook]).code == .success)
    #expect(lines() == ["home/a-blog|Another post"])
    // A feed subscribed since (on the server, or here): its backlog is no news either; a new
    // item of a feed synced before still is.
    reader.add(.init(url: "https://late.example/rss", title: "Late Feed"))
    for (id, feed, title) in [
      (5 as UInt64, "https://late.example/rss", "Old story of a late feed"),
      (6, "https://blog.example/atom", "Third post"),
    ] {
      reader.add(
        .init(
          id: id, feedURL: feed, title: title, link: "https://site.example/\(id)",
          content: "<p>More</p>", published: start))
    }
    #expect(await harness.run(["sync", "--account", "home", "--exec", hook]).code == .success)
    #expect(lines() == ["home/a-blog|Another post", "home/a-blog|Third post"])
  }

  @Test("add, sync: the account's feeds are sources <account>/<feed>, tagged with their folders")
  func firstSync() async throws {
    let added = await add()
    #expect(added.code == .success, "\(added.err)")
    #expect(added.out.contains("added: home (greader, 2 feeds)"))
    #expect(reader.logins == 1)

    let sync = await harness.run(["sync", "--account", "home", "--json"])
    #expect(sync.code == .success, "\(sync.err)")
    let report = try #require(try sync.json()["sources"] as? [[String: Any]])
    #expect(report.map { $0["name"] as? String } == ["home"], "only the account is synced")
    #expect(report.first?["new"] as? Int == 3)
    #expect(harness.server.requests.allSatisfy { $0.path.hasPrefix(GoogleReaderServer.path) })

    let sources = try #require(
      try await harness.run(["sources", "--json"]).json()["sources"] as? [[String: Any]])
    let news = try #require(sources.first { $0["name"] as? String == "home/hacker-news" })
    #expect(news["tags"] as? [String] == ["tech"])
    #expect(news["account"] as? String == "home")
    #expect(news["format"] as? String == "account")
    #expect(news["status"] as? String == "fetched")
    let text = await harness.run(["sources"])
    #expect(text.out.contains("account home · tags tech · synced"), "\(text.out)")
    #expect(sources.contains { $0["name"] as? String == "home/a-blog" })

    let listed = try await items(["feed", "--source", "home/hacker-news"])
    #expect(listed.map { $0["title"] as? String } == ["Second story", "First story"])
    #expect(listed.first?["source"] as? String == "home/hacker-news")
    // The content is the item's HTML made text; search finds it too.
    let found = await harness.run(["search", "post", "--json"])
    #expect(found.out.contains("A post"))

    // The password is in the encrypted store, nowhere in the clear.
    let files = try FileManager.default.subpathsOfDirectory(atPath: harness.home.path("news"))
    for file in files {
      let data = FileManager.default.contents(atPath: harness.home.path("news/" + file)) ?? Data()
      #expect(!String(decoding: data, as: UTF8.self).contains("s3cret"), "\(file)")
    }
    #expect(!sync.out.contains("s3cret") && !sync.err.contains("s3cret"))
  }

  @Test("items sharing a link are each kept, with ids that hold from one sync to the next")
  func sharedLinks() async throws {
    // A feed whose items all link to its home page: three items, one link.
    for id in 4...6 as ClosedRange<UInt64> {
      reader.add(
        .init(
          id: id, feedURL: "https://blog.example/atom", title: "Status \(id)",
          link: "https://blog.example/", published: start - 3_000 + Int(id)))
    }
    #expect(await add().code == .success)
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    let listed = try await items(["feed", "--source", "home/a-blog"])
    #expect(
      listed.compactMap { $0["title"] as? String } == [
        "Status 6", "Status 5", "Status 4", "A post",
      ])
    let ids = listed.compactMap { $0["id"] as? String }
    #expect(Set(ids).count == 4)
    // One keeps the id its link gives (the same story from a feed of one's own is one item).
    let linkID = ArticleID.forLink("https://blog.example/")
    #expect(ids.filter { $0 == linkID }.count == 1, "\(ids)")

    // A fourth arrives; the ids given stay, and a read mark reaches the item it was made on.
    reader.add(
      .init(
        id: 7, feedURL: "https://blog.example/atom", title: "Status 7",
        link: "https://blog.example/", published: start + 30))
    let later = Date(timeIntervalSince1970: TimeInterval(start + 60))
    #expect(await harness.run(["sync", "--account", "home"], now: later).code == .success)
    let again = try await items(["feed", "--source", "home/a-blog"], now: later)
    #expect(again.count == 5)
    #expect(Array(again.compactMap { $0["id"] as? String }.suffix(4)) == ids)
    #expect(await harness.run(["read", ids[1]], now: later).code == .success)
    #expect(await harness.run(["sync", "--account", "home"], now: later).code == .success)
    #expect(reader.item(5)?.read == true)
    #expect(reader.item(4)?.read == false)
    #expect(reader.item(6)?.read == false)
  }

  @Test("read and saved state both ways; a queued mark is sent once; a stale token is renewed")
  func marksBothWays() async throws {
    _ = await add()
    reader.set(2, read: true)
    reader.set(1, starred: true)
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)

    // The server's marks arrived.
    let unread = try await items(["feed", "--unread", "--source", "home/hacker-news"])
    #expect(unread.map { $0["title"] as? String } == ["First story"])
    let bookmarks = try #require(
      try await harness.run(["bookmarks", "--json"]).json()["articles"] as? [[String: Any]])
    #expect(bookmarks.map { $0["title"] as? String } == ["First story"])

    // Marks made here are queued, then sent by the next sync: once.
    let post = try await id(of: "A post", in: "home/a-blog")
    #expect(await harness.run(["read", post]).code == .success)
    #expect(await harness.run(["bookmark", post]).code == .success)
    let listed = try await harness.run(["accounts", "--json"]).json()
    let account = try #require((listed["accounts"] as? [[String: Any]])?.first)
    #expect(account["pendingMarks"] as? Int == 2)
    #expect(reader.item(3)?.read == false)

    reader.rotateTokenAfterEachChange()
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    #expect(reader.item(3)?.read == true)
    #expect(reader.item(3)?.starred == true)
    let edits = harness.server.requests.filter { $0.path.hasSuffix("/edit-tag") }
    // Two changes, each refused once with the stale token, then sent with a fresh one.
    #expect(edits.count == 3)
    #expect(harness.server.requests.filter { $0.path.hasSuffix("/token") }.count == 2)
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    #expect(harness.server.requests.filter { $0.path.hasSuffix("/edit-tag") }.count == 3)

    // Unread on another device: unread here after the next sync.
    reader.set(3, read: false)
    reader.set(1, starred: false)
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    let again = try await items(["feed", "--unread", "--source", "home/a-blog"])
    #expect(again.map { $0["title"] as? String } == ["A post"])
    let left = try #require(
      try await harness.run(["bookmarks", "--json"]).json()["articles"] as? [[String: Any]])
    #expect(left.map { $0["title"] as? String } == ["A post"])
  }

  @Test("FreshRSS's Google-Bad-Token is known too: the token is fetched again and the mark sent")
  func freshRSSBadToken() async throws {
    _ = await add()
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    reader.sayBadToken(with: "Google-Bad-Token")
    reader.rotateTokenAfterEachChange()
    let post = try await id(of: "A post", in: "home/a-blog")
    #expect(await harness.run(["read", post]).code == .success)
    #expect(await harness.run(["bookmark", post]).code == .success)
    // The second change meets the token the first one made stale: refused with FreshRSS's
    // header, fetched again, sent.
    let sync = await harness.run(["sync", "--account", "home"])
    #expect(sync.code == .success, "\(sync.err)")
    #expect(reader.item(3)?.read == true && reader.item(3)?.starred == true)
    #expect(harness.server.requests.filter { $0.path.hasSuffix("/token") }.count == 2)
  }

  @Test("incremental: the next sync asks for items since the last one, with a continuation")
  func incremental() async throws {
    _ = await add()
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    for id in 4...6 as ClosedRange<UInt64> {
      reader.add(
        .init(
          id: id, feedURL: "https://blog.example/atom", title: "New post \(id)",
          link: "https://site.example/\(id)", published: start + 600 + Int(id)))
    }
    let later = Date(timeIntervalSince1970: Double(start + 3_600))
    let sync = await harness.run(["sync", "--account", "home", "--json"], now: later)
    let report = try #require(try sync.json()["sources"] as? [[String: Any]])
    #expect(report.first { $0["name"] as? String == "home" }?["new"] as? Int == 3)
    let contents = harness.server.requests.filter { $0.path.contains("/stream/contents/") }
    #expect(contents.last?.query["ot"] == String(start - 60))
    // Pages of two: the first sync read 3 items in 2 pages, the second 3 in 2.
    #expect(contents.count == 4)
    #expect(contents.last?.query["c"] == "2")
    let titles = try await items(["feed", "--source", "home/a-blog"], now: later).compactMap {
      $0["title"] as? String
    }
    #expect(titles.sorted() == ["A post", "New post 4", "New post 5", "New post 6"])
  }

  @Test("a wrong password: add and test exit 77, and nothing is kept")
  func wrongPassword() async throws {
    let refused = await harness.run(
      [
        "accounts", "add", "home", "--greader", reader.url.absoluteString, "--user", "ann",
        "--password-env", "READER_PASSWORD",
      ], environment: ["READER_PASSWORD": "wrong"])
    #expect(refused.code == .permissionDenied)
    #expect(refused.err.contains("account home: the server refused the user name or password"))
    #expect(!refused.err.contains("wrong"))
    let listed = await harness.run(["accounts"])
    #expect(listed.out.hasPrefix("No accounts"))
    #expect(await harness.run(["accounts", "test", "home"]).code == .usage)
  }

  @Test("a hanging server fails the account at its deadline (exit 69); queued marks stay")
  func hanging() async throws {
    _ = await add()
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    #expect(
      await harness.run(["read", try await id(of: "A post", in: "home/a-blog")]).code == .success)
    let hold = harness.server.hold
    harness.server.route(GoogleReaderServer.path + "/accounts/ClientLogin") { _ in
      hold()
      return .json("{}")
    }
    let server = harness.server
    let result = await harness.run(
      ["sync", "--account", "home", "--json"], environment: ["NEWS_SOURCE_DEADLINE": "5"],
      deadline: passing(.seconds(20), asked: Recorder()) {
        server.requests.contains { $0.path.hasSuffix("/ClientLogin") }
      })
    #expect(result.code == .unavailable)
    let report = try #require(try result.json()["sources"] as? [[String: Any]])
    #expect(
      (report.first?["error"] as? String)?.contains("account home: no answer within 20 s") == true)
    let listed = try await harness.run(["accounts", "--json"]).json()
    #expect((listed["accounts"] as? [[String: Any]])?.first?["pendingMarks"] as? Int == 1)
  }

  @Test("remove: the account, its sources and their items go; local sources stay")
  func remove() async throws {
    _ = await add()
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    let removed = await harness.run(["accounts", "remove", "home"])
    #expect(removed.code == .success)
    #expect(removed.out == "removed: home (2 sources and their items)\n")
    let sources = try #require(
      try await harness.run(["sources", "--json"]).json()["sources"] as? [[String: Any]])
    #expect(!sources.contains { ($0["name"] as? String)?.hasPrefix("home/") == true })
    #expect(sources.contains { $0["name"] as? String == "a" })
    let found = await harness.run(["search", "story", "--json"])
    #expect(!found.out.contains("First story"))
    #expect(await harness.run(["accounts", "remove", "home"]).code == .usage)
  }

  @Test("kill -9 during a sync loses no queued mark: the next sync sends it, once")
  func killed() async throws {
    _ = await add()
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    let post = try await id(of: "A post", in: "home/a-blog")
    #expect(await harness.run(["read", post]).code == .success)

    // The first edit-tag is held while the process sending it is killed.
    let sync = KilledSync()
    harness.server.route(
      GoogleReaderServer.path + "/reader/api/0/edit-tag",
      sync.route(
        isMark: { $0.path.hasSuffix("/edit-tag") }, answer: { [reader] in reader.answer($0) }))
    try await sync.run(environment: harness.environment)

    let listed = try await harness.run(["accounts", "--json"]).json()
    #expect((listed["accounts"] as? [[String: Any]])?.first?["pendingMarks"] as? Int == 1)
    #expect(reader.item(3)?.read == false)
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    #expect(reader.item(3)?.read == true)
    #expect(sync.marks == 2)
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    #expect(sync.marks == 2, "sent once")
  }

  @Test("subscriptions from here: sources add|import --account, remove <account>/<feed>")
  func subscriptions() async throws {
    _ = await add()
    let added = await harness.run(
      ["sources", "add", "https://new.example/rss", "--account", "home"])
    #expect(added.code == .success, "\(added.err)")
    #expect(added.out.contains("subscribed on home: https://new.example/rss"))
    let opml = try harness.home.write(
      "feeds.opml",
      """
      <?xml version="1.0"?><opml version="2.0"><body><outline text="Science">
      <outline type="rss" text="Lab" xmlUrl="https://lab.example/feed"/></outline></body></opml>
      """)
    let imported = await harness.run(["sources", "import", opml, "--account", "home"])
    #expect(imported.code == .success, "\(imported.err)")
    #expect(
      reader.feeds.map(\.url).suffix(2) == ["https://new.example/rss", "https://lab.example/feed"])
    #expect(reader.feeds.last?.folders == ["science"] || reader.feeds.last?.folders == ["Science"])
    #expect(reader.logins == 3, "one login a command")

    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    let removed = await harness.run(["sources", "remove", "home/a-blog"])
    #expect(removed.code == .success, "\(removed.err)")
    #expect(!reader.feeds.contains { $0.url == "https://blog.example/atom" })
    let sources = try #require(
      try await harness.run(["sources", "--json"]).json()["sources"] as? [[String: Any]])
    #expect(!sources.contains { $0["name"] as? String == "home/a-blog" })
    #expect(sources.contains { $0["name"] as? String == "home/hacker-news" })
    let gone = await harness.run(["sources", "remove", "home/a-blog"])
    #expect(gone.code == .usage)
    #expect(gone.err.contains("no account has a source named 'home/a-blog'"))
    let conflict = await harness.run(
      ["sources", "add", "https://x.example/rss", "--account", "home", "--name", "x"])
    #expect(conflict.code == .usage)
    #expect(conflict.err.contains("--name does not apply with --account"))
  }

  @Test("plain sync: every provider, feed source and account, one report line each")
  func everything() async throws {
    _ = await add()
    let server = harness.server
    server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    server.route("/articles", .fixture("articles.json"))
    server.route("/bbc.json", .fixture("headlines.json"))
    for name in ["a", "b", "c"] {
      server.route("/feed/\(name).json", .fixture("source_\(name).readme-sample.json"))
    }
    let sync = await harness.run(["sync", "--json"])
    #expect(sync.code == .success, "\(sync.err)")
    let report = try #require(try sync.json()["sources"] as? [[String: Any]])
    #expect(
      report.compactMap { $0["name"] as? String }
        == ["newsapi", "articles", "bbc", "a", "b", "c", "home"])
    #expect(report.allSatisfy { $0["status"] as? String == "ok" })
    // The account's feeds are not fetched as web feeds: they come from the account.
    #expect(!server.requests.contains { $0.target.contains("news.example") })
    let text = await harness.run(["sync"])
    // Its total is what it holds here, as a feed's is: not what this sync brought.
    #expect(text.out.contains("home      ok 0 new (3 total)"), "\(text.out)")
  }
}
