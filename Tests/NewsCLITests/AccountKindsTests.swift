import Foundation
import NewsCore
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Miniflux (with a user and with an API key), Nextcloud News, Tiny Tiny RSS and Feedbin, each
/// against a loopback server written from its API's documentation, driven the same way: the
/// guarantees the Google Reader account has, for every kind.
@Suite("accounts: Miniflux, Nextcloud News, Tiny Tiny RSS, Feedbin")
struct AccountKindsTests {
  static let kinds = ["miniflux", "miniflux-key", "nextcloud", "ttrss", "feedbin"]
  let start = 1_645_120_000

  /// A harness with a server of `kind`: two feeds (one in folder Tech), three items.
  func setUp(_ kind: String) throws -> (Harness, any AccountServerFake) {
    let harness = try Harness()
    let fake: any AccountServerFake =
      switch kind {
      case "miniflux":
        MinifluxServer(server: harness.server, user: "ann", password: "s3cret-pass", maximumPage: 2)
      case "miniflux-key": MinifluxServer(server: harness.server, user: nil, password: "key-42")
      case "nextcloud":
        NextcloudServer(server: harness.server, user: "ann", password: "s3cret-pass")
      case "ttrss": TinyTinyRSSServer(server: harness.server, user: "ann", password: "s3cret-pass")
      default:
        FeedbinServer(
          server: harness.server, user: "ann@example.com", password: "s3cret-pass", maximumPage: 2)
      }
    let news = fake.model.addFeed(url: "https://news.example/rss", title: "News", folder: "Tech")
    let blog = fake.model.addFeed(url: "https://blog.example/atom", title: "Blog")
    for (id, feed, title) in [
      (1, news, "First story"), (2, news, "Second story"), (3, blog, "A post"),
    ] {
      fake.model.addItem(
        id: id, feed: feed, title: title, link: "https://site.example/\(id)",
        content: "<p>Body of <b>\(title)</b></p>", published: start - 3_600 + id,
        enclosure: id == 3 ? ("https://cdn.example/3.mp3", "audio/mpeg") : nil)
    }
    return (harness, fake)
  }

  func add(_ harness: Harness, _ fake: any AccountServerFake) async -> RunResult {
    await harness.run(
      ["accounts", "add", "home"] + fake.addArguments + ["--password-env", "PW"],
      environment: ["PW": fake.password])
  }

  func addAndSync(_ harness: Harness, _ fake: any AccountServerFake) async throws {
    let added = await add(harness, fake)
    #expect(added.code == .success, "\(added.err)")
    let sync = await harness.run(["sync", "--account", "home"])
    #expect(sync.code == .success, "\(sync.err)")
  }

  func id(_ harness: Harness, of title: String) async throws -> String {
    let found = try await harness.run(["search", title, "--json"]).json()
    let items = try #require(found["articles"] as? [[String: Any]])
    return try #require(items.first { $0["title"] as? String == title }?["id"] as? String)
  }

  func pending(_ harness: Harness) async throws -> Int? {
    let listed = try await harness.run(["accounts", "--json"]).json()
    return (listed["accounts"] as? [[String: Any]])?.first?["pendingMarks"] as? Int
  }

  func unread(_ harness: Harness) async throws -> Set<String> {
    let result = await harness.run(["feed", "--unread", "--offline", "--json"])
    let items = try #require(try result.json()["items"] as? [[String: Any]])
    return Set(
      items.filter { ($0["source"] as? String)?.hasPrefix("home/") == true }
        .compactMap { $0["title"] as? String })
  }

  func bookmarked(_ harness: Harness) async throws -> Set<String> {
    let listed = try await harness.run(["bookmarks", "--json"]).json()
    return Set((listed["articles"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String })
  }

  func expectNoStrayRequests(_ harness: Harness, _ fake: any AccountServerFake) {
    #expect(fake.model.unknownRequests.isEmpty, "\(fake.model.unknownRequests)")
    #expect(harness.server.unexpectedRequests.isEmpty)
    #expect(harness.server.requests.allSatisfy { $0.path.hasPrefix(fake.pathPrefix) })
  }

  @Test(
    "add, sync: feeds are sources <account>/<feed> tagged with their folders, items and files come",
    arguments: kinds)
  func firstSync(kind: String) async throws {
    let (harness, fake) = try setUp(kind)
    let added = await add(harness, fake)
    #expect(added.code == .success, "\(added.err)")
    #expect(added.out.contains("added: home (\(fake.kind), 2 feeds)"), "\(added.out)")
    // Its feeds are sources at once, never fetched, under the names a sync keeps.
    let before = try #require(
      try await harness.run(["sources", "--json"]).json()["sources"] as? [[String: Any]])
    let listed = before.filter { $0["account"] as? String == "home" }
    #expect(Set(listed.compactMap { $0["name"] as? String }) == ["home/news", "home/blog"])
    #expect(listed.allSatisfy { $0["status"] as? String == "never" }, "\(listed)")
    let unsynced = await harness.run(["accounts"]).out
    #expect(
      unsynced.contains("  2 feeds, not synced yet (news sync --account home)"), "\(unsynced)")
    let sync = await harness.run(["sync", "--account", "home", "--json"])
    #expect(sync.code == .success, "\(sync.err)")
    let report = try #require(try sync.json()["sources"] as? [[String: Any]])
    #expect(report.first?["new"] as? Int == 3)
    let sources = try #require(
      try await harness.run(["sources", "--json"]).json()["sources"] as? [[String: Any]])
    let news = try #require(sources.first { $0["name"] as? String == "home/news" })
    #expect(news["tags"] as? [String] == ["tech"])
    #expect(news["account"] as? String == "home")
    #expect(sources.contains { $0["name"] as? String == "home/blog" })
    let blog = try await harness.run(["feed", "--source", "home/blog", "--json"]).json()
    let post = try #require((blog["items"] as? [[String: Any]])?.first)
    #expect(post["title"] as? String == "A post")
    let enclosures = try #require(post["enclosures"] as? [[String: Any]])
    #expect(enclosures.first?["url"] as? String == "https://cdn.example/3.mp3")
    #expect(enclosures.first?["type"] as? String == "audio/mpeg")
    #expect(try await unread(harness) == ["First story", "Second story", "A post"])
    #expect(await harness.run(["search", "Body", "--json"]).out.contains("Second story"))
    // The password is in the encrypted store only.
    for file in try FileManager.default.subpathsOfDirectory(atPath: harness.home.path("news")) {
      let data = FileManager.default.contents(atPath: harness.home.path("news/" + file)) ?? Data()
      #expect(!String(decoding: data, as: UTF8.self).contains(fake.password), "\(file)")
    }
    let accounts = await harness.run(["accounts"])
    #expect(accounts.out.contains("home  \(fake.kind)"), "\(accounts.out)")
    expectNoStrayRequests(harness, fake)
  }

  @Test(
    "an account's feeds are at their own addresses: listed, exported, and known to sources add",
    arguments: kinds)
  func feedAddresses(kind: String) async throws {
    let (harness, fake) = try setUp(kind)
    try await addAndSync(harness, fake)
    let sources = try #require(
      try await harness.run(["sources", "--json"]).json()["sources"] as? [[String: Any]])
    let urls = Dictionary(
      uniqueKeysWithValues: sources.compactMap { source in
        (source["name"] as? String).map { ($0, source["url"] as? String) }
      })
    #expect(urls["home/news"] == "https://news.example/rss")
    #expect(urls["home/blog"] == "https://blog.example/atom")
    // The site each is of, where the server says (Tiny Tiny RSS's API does not).
    let site = sources.first { $0["name"] as? String == "home/news" }?["site"] as? String
    #expect(site == (kind == "ttrss" ? nil : "https://news.example/"))
    let exported = await harness.run(["sources", "export"])
    #expect(
      exported.out.contains(
        #"text="News" title="News" xmlUrl="https://news.example/rss""#
          + (kind == "ttrss" ? "" : #" htmlUrl="https://news.example/""#) + #" category="tech"/>"#),
      "\(exported.out)")
    #expect(exported.out.contains(#"xmlUrl="https://blog.example/atom""#))
    // Subscribed through the account already: nothing asked, nothing added.
    let requests = harness.server.requests.count
    let again = await harness.run(["sources", "add", "https://NEWS.example/rss"])
    #expect(again.code == .success, "\(again.err)")
    #expect(again.out.contains("already subscribed: home/news"), "\(again.out)")
    #expect(harness.server.requests.count == requests)
    // Its settings are its server's: refused, config.json as it was.
    let configPath = harness.home.path("news/config.json")
    let config = FileManager.default.contents(atPath: configPath)
    let set = await harness.run(["sources", "set", "home/news", "--hide"])
    #expect(set.code == .usage)
    #expect(
      set.err.hasPrefix(
        "news: 'home/news' is a feed of account home: its server keeps its settings"), "\(set.err)")
    #expect(FileManager.default.contents(atPath: configPath) == config)
    expectNoStrayRequests(harness, fake)
  }

  @Test(
    "read and saved state both ways; a mark is sent once; unread again elsewhere wins",
    arguments: kinds)
  func marksBothWays(kind: String) async throws {
    let (harness, fake) = try setUp(kind)
    try await addAndSync(harness, fake)
    #expect(await harness.run(["read", try await id(harness, of: "First story")]).code == .success)
    #expect(await harness.run(["bookmark", try await id(harness, of: "A post")]).code == .success)
    #expect(try await pending(harness) == 2)
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    #expect(fake.model.item(1)?.read == true)
    #expect(fake.model.item(3)?.starred == true)
    #expect(try await pending(harness) == 0)
    let sent = harness.server.requests.filter(fake.isMark).count
    #expect(sent >= 2)

    // Another device: 2 read and starred, 1 unread again, 3 unstarred.
    fake.model.set([2], read: true, starred: true)
    fake.model.set([1], read: false)
    fake.model.set([3], starred: false)
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    #expect(try await unread(harness) == ["First story", "A post"])
    #expect(try await bookmarked(harness) == ["Second story"])
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    #expect(harness.server.requests.filter(fake.isMark).count == sent, "nothing sent again")
    #expect(fake.model.item(1)?.read == false, "the other device's unread stays")
    expectNoStrayRequests(harness, fake)
  }

  @Test("incremental: a later sync brings what came since, once", arguments: kinds)
  func incremental(kind: String) async throws {
    let (harness, fake) = try setUp(kind)
    try await addAndSync(harness, fake)
    fake.model.addItem(
      id: 4, feed: 2, title: "Another post", link: "https://site.example/4", published: start)
    let sync = await harness.run(["sync", "--account", "home", "--json"])
    #expect(sync.code == .success, "\(sync.err)")
    #expect((try sync.json()["sources"] as? [[String: Any]])?.first?["new"] as? Int == 1)
    let again = await harness.run(["sync", "--account", "home", "--json"])
    #expect((try again.json()["sources"] as? [[String: Any]])?.first?["new"] as? Int == 0)
    let blog = try await harness.run(["feed", "--source", "home/blog", "--json"]).json()
    #expect((blog["items"] as? [[String: Any]])?.count == 2)
  }

  @Test(
    "read --all --source of an account's feed: one request where the API has one", arguments: kinds)
  func wholeFeedRead(kind: String) async throws {
    let (harness, fake) = try setUp(kind)
    try await addAndSync(harness, fake)
    let result = await harness.run(["read", "--all", "--source", "home/news"])
    #expect(result.code == .success, "\(result.err)")
    #expect(try await pending(harness) == (kind == "feedbin" ? 2 : 1))
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    #expect(fake.model.item(1)?.read == true && fake.model.item(2)?.read == true)
    #expect(fake.model.item(3)?.read == false, "the other feed's item stays unread")
    let feedMarks = harness.server.requests.filter(fake.isFeedMark).count
    let itemMarks = harness.server.requests.filter(fake.isMark).count
    #expect(kind == "feedbin" ? (feedMarks, itemMarks) == (0, 1) : (feedMarks, itemMarks) == (1, 0))
    #expect(try await unread(harness) == ["A post"])
  }

  @Test(
    "an item or a feed deleted on the server keeps its bookmarks and articles here",
    arguments: kinds)
  func deletedItem(kind: String) async throws {
    let (harness, fake) = try setUp(kind)
    fake.model.set([1, 3], starred: true)
    try await addAndSync(harness, fake)
    let kept = try await id(harness, of: "First story")
    #expect(try await bookmarked(harness) == ["First story", "A post"])
    fake.model.delete(1)
    fake.model.unsubscribe(2)
    let sync = await harness.run(["sync", "--account", "home"])
    #expect(sync.code == .success, "\(sync.err)")
    #expect(try await bookmarked(harness) == ["First story", "A post"])
    #expect(try await id(harness, of: "First story") == kept)
    #expect(try await unread(harness).contains("First story"))
  }

  @Test(
    "feed --refresh syncs the accounts of the sources it shows; without it, the store answers",
    arguments: kinds)
  func feedRefresh(kind: String) async throws {
    let (harness, fake) = try setUp(kind)
    try await addAndSync(harness, fake)
    let news = try #require(fake.model.feeds.first { $0.title == "News" })
    fake.model.addItem(
      id: 4, feed: news.id, title: "Fourth story", link: "https://site.example/4",
      published: start)
    func titles(_ arguments: [String]) async throws -> [String] {
      let result = await harness.run(["feed", "--source", "home/news", "--json"] + arguments)
      #expect(result.code == .success, "\(result.err)")
      return (try result.json()["items"] as? [[String: Any]] ?? []).compactMap {
        $0["title"] as? String
      }
    }
    #expect(try await titles([]) == ["Second story", "First story"])
    fake.model.addItem(
      id: 5, feed: news.id, title: "Fifth story", link: "https://site.example/5",
      published: start + 1)
    // --new: what the account's sync brought now.
    #expect(try await titles(["--refresh", "--new"]) == ["Fifth story", "Fourth story"])
    #expect(try await titles(["--refresh", "--new"]) == [])
    #expect(
      try await titles(["--refresh"]) == [
        "Fifth story", "Fourth story", "Second story", "First story",
      ])
    // As of its account's last sync, not "cached".
    let text = await harness.run(["feed", "--source", "home/news"])
    #expect(text.out.contains("Source home/news (synced just now, 4 unread)"), "\(text.out)")
    expectNoStrayRequests(harness, fake)
  }

  @Test("feed --refresh right after accounts add syncs the account: its feeds are listed")
  func feedRefreshFirst() async throws {
    let (harness, fake) = try setUp("miniflux")
    for name in ["a", "b", "c"] {
      harness.server.route("/feed/\(name).json", .fixture("source_\(name).readme-sample.json"))
    }
    #expect(await add(harness, fake).code == .success)
    let result = await harness.run(["feed", "--refresh", "--json"])
    #expect(result.code == .success, "\(result.err)")
    let titles = (try result.json()["items"] as? [[String: Any]] ?? []).compactMap {
      $0["title"] as? String
    }
    #expect(Set(titles).isSuperset(of: ["First story", "Second story", "A post"]), "\(titles)")
    // Named sources are what --refresh asks: an account not among them is not synced.
    let requests = harness.server.requests.count
    _ = await harness.run(["feed", "--refresh", "--source", "a"])
    #expect(!harness.server.requests.dropFirst(requests).contains { $0.path.hasPrefix("/v1/") })
  }

  @Test("feed right after accounts add syncs the account once, as a source never fetched")
  func feedFirst() async throws {
    let (harness, fake) = try setUp("miniflux")
    for name in ["a", "b", "c"] {
      harness.server.route("/feed/\(name).json", .fixture("source_\(name).readme-sample.json"))
    }
    #expect(await add(harness, fake).code == .success)
    // Offline, not synced yet: one line for the account, not one a feed.
    let offline = await harness.run(["feed", "--offline"])
    let lines = offline.err.split(separator: "\n").filter { $0.contains("home") }
    #expect(
      lines == [
        "news: account home not synced yet (2 feeds): news sync --account home brings them"
      ],
      "\(offline.err)")
    let first = await harness.run(["feed", "--json"])
    #expect(first.code == .success, "\(first.err)")
    let titles = (try first.json()["items"] as? [[String: Any]] ?? []).compactMap {
      $0["title"] as? String
    }
    #expect(Set(titles).isSuperset(of: ["First story", "Second story", "A post"]), "\(titles)")
    // Synced once: the next feed shows what is stored, asking the server nothing.
    let requests = harness.server.requests.count
    let again = await harness.run(["feed", "--json"])
    #expect(again.code == .success, "\(again.err)")
    #expect(!harness.server.requests.dropFirst(requests).contains { $0.path.hasPrefix("/v1/") })
    #expect((try again.json()["items"] as? [[String: Any]])?.count == titles.count)
  }

  @Test("feed --refresh with an account that cannot be synced: said, its feeds as stored")
  func feedRefreshFailing() async throws {
    let (harness, fake) = try setUp("miniflux")
    try await addAndSync(harness, fake)
    harness.server.route("/v1/me", LoopbackServer.Response(status: 503))
    let result = await harness.run(["feed", "--source", "home/news", "--refresh"])
    #expect(result.code == .success, "\(result.err)")
    #expect(
      result.err.contains(
        "account home not synced (its feeds are as stored): account home: the server answered "
          + "HTTP 503"), "\(result.err)")
    #expect(result.out.contains("First story"))
  }

  @Test(
    "the server's database rebuilt: its stories under new ids are the articles they were",
    arguments: kinds)
  func rebuilt(kind: String) async throws {
    let (harness, fake) = try setUp(kind)
    fake.model.set([1], starred: true)
    fake.model.set([2], read: true)
    try await addAndSync(harness, fake)
    let listed = try await harness.run(["feed", "--offline", "--json"]).json()
    let before = Set(
      (listed["items"] as? [[String: Any]] ?? []).filter {
        ($0["source"] as? String)?.hasPrefix("home/") == true
      }.compactMap { $0["id"] as? String })
    #expect(before.count == 3)
    // Each item deleted and made again, as a server restored from its feeds makes them, and
    // their states as the restored server has them: the first story read and no longer
    // starred, the second unread again.
    for item in fake.model.items {
      fake.model.delete(item.id)
      fake.model.addItem(
        id: item.id + 100, feed: item.feed, title: item.title, link: item.link,
        content: item.content, published: item.published, enclosure: item.enclosure)
      fake.model.set([item.id + 100], read: item.id == 1, starred: false)
    }
    let sync = await harness.run(["sync", "--account", "home", "--json"])
    #expect(sync.code == .success, "\(sync.err)")
    let report = try #require((try sync.json()["sources"] as? [[String: Any]])?.first)
    #expect(report["new"] as? Int == 0)
    #expect(report["total"] as? Int == 3)
    let again = try await harness.run(["feed", "--offline", "--json"]).json()
    let after = (again["items"] as? [[String: Any]] ?? []).filter {
      ($0["source"] as? String)?.hasPrefix("home/") == true
    }.compactMap { $0["id"] as? String }
    #expect(after.count == 3)
    #expect(Set(after) == before)
    #expect(try await bookmarked(harness) == [])
    #expect(try await unread(harness) == ["Second story", "A post"])
    let accounts = await harness.run(["accounts"])
    #expect(!accounts.out.contains("gone"), "\(accounts.out)")
    // A mark made here reaches the story's new item.
    #expect(await harness.run(["read", try await id(harness, of: "A post")]).code == .success)
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    #expect(fake.model.item(103)?.read == true)
    #expect(try await unread(harness) == ["Second story"])
    expectNoStrayRequests(harness, fake)
  }

  @Test("subscriptions from here: sources add --account, remove <account>/<feed>", arguments: kinds)
  func subscriptions(kind: String) async throws {
    let (harness, fake) = try setUp(kind)
    try await addAndSync(harness, fake)
    // A feed the account has: said, and the server not asked.
    let requests = harness.server.requests.count
    let held = await harness.run([
      "sources", "add", "https://news.example/rss/", "--account", "home",
    ])
    #expect(held.code == .success, "\(held.err)")
    #expect(held.out == "already subscribed: home/news (https://news.example/rss/)\n")
    #expect(harness.server.requests.count == requests)
    let added = await harness.run([
      "sources", "add", "https://new.example/rss", "--account", "home",
    ])
    #expect(added.code == .success, "\(added.err)")
    // A source at once, named as a sync names it; its items with the next sync.
    // (The fake servers title a new feed by its address.)
    let name = "home/https-new-example-rss"
    #expect(
      added.out
        == "subscribed on home: https://new.example/rss\n"
        + "source \(name); news sync --account home brings its items\n", "\(added.out)")
    let listed = try #require(
      try await harness.run(["sources", "--json"]).json()["sources"] as? [[String: Any]])
    let row = try #require(listed.first { $0["name"] as? String == name })
    #expect(row["account"] as? String == "home")
    // Not synced yet, although the account is: a feed showing it syncs the account, as it
    // fetches a source never fetched.
    #expect(row["fetchedAt"] is NSNull, "\(row)")
    let text = await harness.run(["sources"]).out
    #expect(
      text.split(separator: "\n").drop { !$0.hasPrefix(name) }.dropFirst().first?
        .contains("· not synced yet ·") == true, "\(text)")
    let offline = await harness.run(["feed", "--offline", "--source", name])
    #expect(
      offline.err.contains(
        "account home: 1 feed subscribed since its last sync: news sync --account home brings "
          + "its items"), "\(offline.err)")
    #expect(await harness.run(["feed", "--source", name]).code == .success)
    let synced = try #require(
      try await harness.run(["sources", "--json"]).json()["sources"] as? [[String: Any]])
    #expect(synced.first { $0["name"] as? String == name }?["fetchedAt"] is String)
    let removed = await harness.run(["sources", "remove", "home/blog"])
    #expect(removed.code == .success, "\(removed.err)")
    #expect(!fake.model.feeds.contains { $0.url == "https://blog.example/atom" })
    let sources = try #require(
      try await harness.run(["sources", "--json"]).json()["sources"] as? [[String: Any]])
    #expect(!sources.contains { $0["name"] as? String == "home/blog" })
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    expectNoStrayRequests(harness, fake)
  }

  @Test(
    "a feed the server cannot download or find is not subscribed: its reason said, exit 69 or 65",
    arguments: [
      ("miniflux", "the server answered HTTP 400 (bad request): Unable to fetch this resource"),
      ("nextcloud", "the server answered HTTP 422: Could not read the feed\n"),
      ("ttrss", "not subscribed to https://unreachable.example/rss: Tiny Tiny RSS could not "),
      ("feedbin", "not subscribed to https://unreachable.example/rss: Feedbin found no feed there"),
    ])
  func unreachableFeed(kind: String, said: String) async throws {
    let (harness, fake) = try setUp(kind)
    try await addAndSync(harness, fake)
    let added = await harness.run([
      "sources", "add", "https://\(ReaderModel.unreachableHost)/rss", "--account", "home",
    ])
    #expect(added.code == (kind == "feedbin" ? .dataError : .unavailable))
    #expect(added.err.contains("news: account home: " + said), "\(added.err)")
    #expect(!added.err.contains("\u{1B}"))
    #expect(added.out.isEmpty)
    #expect(fake.model.feeds.count == 2)
    expectNoStrayRequests(harness, fake)
  }

  @Test("Feedbin: a page of several feeds is not subscribed; they are named (exit 65)")
  func feedbinSeveralFeeds() async throws {
    let (harness, fake) = try setUp("feedbin")
    try await addAndSync(harness, fake)
    let page = "https://\(ReaderModel.severalFeedsHost)"
    let added = await harness.run(["sources", "add", page, "--account", "home"])
    #expect(added.code == .dataError)
    #expect(
      added.err.contains(
        "not subscribed to \(page): Feedbin found several feeds there (\(page)/posts.xml, "
          + "\(page)/comments.xml): subscribe to one of them"), "\(added.err)")
    #expect(fake.model.feeds.count == 2)
  }

  @Test(
    "accounts test: login, feeds, and a mark round trip that leaves the item as it was",
    arguments: kinds)
  func accountsTest(kind: String) async throws {
    let (harness, fake) = try setUp(kind)
    fake.model.set([2], read: true)
    #expect(await add(harness, fake).code == .success)
    let before = harness.server.requests.filter(fake.isMark).count
    let tested = await harness.run(["accounts", "test", "home"])
    #expect(tested.code == .success, "\(tested.err)")
    #expect(
      tested.out.contains("home: logged in, 2 feeds; item 2 marked unread and read again"),
      "\(tested.out)")
    #expect(fake.model.item(2)?.read == true)
    #expect(harness.server.requests.filter(fake.isMark).count == before + 2)
  }

  @Test(
    "a login redirected to another server is refused; the credential never reaches it",
    arguments: zip(kinds, [302, 307, 308, 302, 307]))
  func redirected(kind: String, status: Int) async throws {
    let (harness, fake) = try setUp(kind)
    let other = try LoopbackServer()
    other.route(prefix: "/") { _ in .json("{}") }
    harness.server.route(
      fake.loginPath, .redirect(status, to: other.baseURL.absoluteString + fake.loginPath))
    let result = await add(harness, fake)
    #expect(result.code == .unavailable, "\(result.err)")
    #expect(result.err.contains("carries a credential"), "\(result.err)")
    #expect(other.requests.isEmpty, "the credential reached the other server")
    #expect(await harness.run(["accounts"]).out.hasPrefix("No accounts"))
  }

  @Test("a login page (HTML) where the API should be: said as such, nothing kept", arguments: kinds)
  func htmlAnswer(kind: String) async throws {
    let (harness, fake) = try setUp(kind)
    harness.server.route(
      fake.loginPath,
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "text/html"],
        body: Data("<!DOCTYPE html><html><body><form>Log in</form></body></html>".utf8)))
    // Feedbin's login answers with no body: its next request is the one that shows it.
    if kind == "feedbin" {
      harness.server.route(
        "/v2/subscriptions.json",
        LoopbackServer.Response(status: 200, body: Data("<html>login</html>".utf8)))
    }
    let result = await add(harness, fake)
    #expect(result.code == .dataError, "\(result.err)")
    #expect(result.err.contains("an HTML page, not JSON"), "\(result.err)")
    #expect(await harness.run(["accounts"]).out.hasPrefix("No accounts"))
  }

  @Test("a wrong password or key: exit 77, nothing kept", arguments: kinds)
  func refused(kind: String) async throws {
    let (harness, fake) = try setUp(kind)
    let result = await harness.run(
      ["accounts", "add", "home"] + fake.addArguments + ["--password-env", "PW"],
      environment: ["PW": "wrong"])
    #expect(result.code == .permissionDenied, "\(result.err)")
    #expect(result.err.contains("refused the user name or password"), "\(result.err)")
    #expect(!result.err.contains("wrong"))
  }

  @Test(
    "a server failing half-way through a sync: the marks it took are not sent again",
    arguments: kinds)
  func failsHalfWay(kind: String) async throws {
    let (harness, fake) = try setUp(kind)
    try await addAndSync(harness, fake)
    #expect(await harness.run(["read", try await id(harness, of: "A post")]).code == .success)
    let failing = Mutex(true)
    let route: @Sendable (LoopbackServer.Request) -> LoopbackServer.Response = { [fake] request in
      // Everything after the marks fails (500) while `failing`.
      let login =
        kind == "ttrss" ? TinyTinyRSSServer.isLogin(request) : request.path == fake.loginPath
      if failing.withLock({ $0 }), !fake.isMark(request), !login {
        return .json("", status: 500)
      }
      return fake.answer(request)
    }
    harness.server.route(prefix: fake.pathPrefix, route)
    harness.server.route(fake.loginPath, route)
    let failed = await harness.run(
      ["sync", "--account", "home"], environment: ["NEWS_RETRY_DELAY": "0"])
    #expect(failed.code == .unavailable, "\(failed.err)")
    #expect(fake.model.item(3)?.read == true, "the mark went first")
    #expect(try await pending(harness) == 0)
    let sent = harness.server.requests.filter(fake.isMark).count
    failing.withLock { $0 = false }
    fake.model.set([3], read: false)
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    #expect(harness.server.requests.filter(fake.isMark).count == sent)
    #expect(fake.model.item(3)?.read == false)
    #expect(try await unread(harness).contains("A post"), "unread elsewhere since: unread here")
  }

  @Test(
    "a hanging server fails the account at its deadline (exit 69); queued marks stay",
    arguments: kinds)
  func hanging(kind: String) async throws {
    let (harness, fake) = try setUp(kind)
    try await addAndSync(harness, fake)
    #expect(await harness.run(["read", try await id(harness, of: "A post")]).code == .success)
    let hold = harness.server.hold
    harness.server.route(fake.loginPath) { _ in
      hold()
      return .json("{}")
    }
    let server = harness.server
    let path = fake.loginPath
    let result = await harness.run(
      ["sync", "--account", "home", "--json"], environment: ["NEWS_SOURCE_DEADLINE": "5"],
      deadline: passing(.seconds(20), asked: Recorder()) {
        server.requests.contains { $0.path == path }
      })
    #expect(result.code == .unavailable)
    let report = try #require(try result.json()["sources"] as? [[String: Any]])
    #expect((report.first?["error"] as? String)?.contains("no answer within 20 s") == true)
    #expect(try await pending(harness) == 1)
  }

  @Test(
    "kill -9 during a sync loses no queued mark: the next sync sends it, once", arguments: kinds)
  func killed(kind: String) async throws {
    let (harness, fake) = try setUp(kind)
    try await addAndSync(harness, fake)
    #expect(await harness.run(["read", try await id(harness, of: "A post")]).code == .success)
    let sync = KilledSync()
    let route = sync.route(
      isMark: { [fake] in fake.isMark($0) }, answer: { [fake] in fake.answer($0) })
    harness.server.route(prefix: fake.pathPrefix, route)
    harness.server.route(fake.loginPath, route)
    try await sync.run(environment: harness.environment)
    #expect(try await pending(harness) == 1)
    #expect(fake.model.item(3)?.read == false)
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    #expect(fake.model.item(3)?.read == true)
    #expect(sync.marks == 2)
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    #expect(sync.marks == 2, "sent once")
  }

  @Test("Tiny Tiny RSS: a session ended mid-way is logged in again, once; API_DISABLED is said")
  func ttrssSession() async throws {
    let (harness, fake) = try setUp("ttrss")
    let server = try #require(fake as? TinyTinyRSSServer)
    try await addAndSync(harness, fake)
    #expect(await harness.run(["read", try await id(harness, of: "A post")]).code == .success)
    // The session ends right after the marks are taken: the next call is NOT_LOGGED_IN.
    harness.server.route(TinyTinyRSSServer.path) { [server] request in
      let answer = server.answer(request)
      if server.isMark(request) { server.expireSessions() }
      return answer
    }
    let logins = server.logins
    let sync = await harness.run(["sync", "--account", "home"])
    #expect(sync.code == .success, "\(sync.err)")
    #expect(server.logins == logins + 2, "the sync's login, and one after the session ended")
    #expect(fake.model.item(3)?.read == true)

    server.disableAPI()
    let disabled = await harness.run(["accounts", "test", "home"])
    #expect(disabled.code == .usage)
    #expect(disabled.err.contains("turn on 'Enable API'"), "\(disabled.err)")
  }

  @Test("Miniflux: a star is a toggle there, so one already as asked is not sent")
  func minifluxToggle() async throws {
    let (harness, fake) = try setUp("miniflux")
    try await addAndSync(harness, fake)
    let post = try await id(harness, of: "A post")
    #expect(await harness.run(["bookmark", post]).code == .success)
    fake.model.set([3], starred: true)
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    #expect(fake.model.item(3)?.starred == true, "not toggled off")
    #expect(!harness.server.requests.contains { $0.path.hasSuffix("/bookmark") })
  }

  @Test("Feedbin: a next page on another server is refused, and nothing is asked of it")
  func feedbinLinkElsewhere() async throws {
    let (harness, fake) = try setUp("feedbin")
    #expect(await add(harness, fake).code == .success)
    let other = try LoopbackServer()
    other.route(prefix: "/") { _ in .json("[]") }
    harness.server.route("/v2/entries.json") { [fake] request in
      var answer = fake.answer(request)
      answer.headers["Link"] =
        "<\(other.baseURL.absoluteString)/v2/entries.json?page=2>; rel=\"next\""
      return answer
    }
    let sync = await harness.run(["sync", "--account", "home", "--json"])
    #expect(sync.code == .unavailable, "a sync's failed account is exit 69, whatever the cause")
    let error = (try sync.json()["sources"] as? [[String: Any]])?.first?["error"] as? String
    #expect(error?.contains("its next page is on another server (127.0.0.1:\(other.port))") == true)
    #expect(other.requests.isEmpty)
  }
}
