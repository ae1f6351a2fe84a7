import Foundation
import Synchronization
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

/// Every list and count a reader shows comes from ``ChannelReader``: contents with read state,
/// and the home rows counted once.
@Suite("Channel reader: lists and counts for a reader")
struct ChannelReaderTests {
  let server: LoopbackServer
  let directory = TemporaryDirectory()

  init() throws {
    server = try LoopbackServer()
    server.route(
      "/one.xml",
      Self.rss(["one-1": "Mon, 02 Nov 2026 10:00:00 GMT", "one-2": "Mon, 02 Nov 2026 08:00:00 GMT"])
    )
    server.route("/two.xml", Self.rss(["two-1": "Mon, 02 Nov 2026 09:00:00 GMT"]))
  }

  static func rss(_ items: [String: String]) -> LoopbackServer.Response {
    let entries = items.sorted { $0.key < $1.key }.map { title, date in
      "<item><title>\(title)</title><link>https://example.com/\(title)</link>"
        + "<pubDate>\(date)</pubDate></item>"
    }.joined()
    return LoopbackServer.Response(
      headers: ["Content-Type": "application/rss+xml"],
      body: Data("<rss version=\"2.0\"><channel><title>t</title>\(entries)</channel></rss>".utf8))
  }

  func services(twoHidden: Bool = false) throws -> NewsServices {
    let base = server.baseURL.absoluteString
    let config = """
      {"sources": [
        {"name": "one", "url": "\(base)/one.xml", "tags": ["news"]},
        {"name": "two", "url": "\(base)/two.xml", "tags": ["news"], "hidden": \(twoHidden)},
        {"name": "a", "enabled": false}, {"name": "b", "enabled": false},
        {"name": "c", "enabled": false}]}
      """
    try Data(config.utf8).write(to: directory.url.appendingPathComponent("config.json"))
    let configuration = try Configuration(environment: [
      "HOME": directory.url.path, "NEWS_HOME": directory.path("home"),
      "NEWS_CONFIG": directory.path("config.json"),
      "NEWS_STORE_KEY": Data(repeating: 7, count: 32).base64EncodedString(),
    ])
    return NewsServices(
      configuration: configuration, configFile: try FeedConfigFile.load(configuration),
      dependencies: NewsDependencies(
        httpClient: URLSessionHTTPClient(), timing: .test(), randomBytes: SecureRandom.bytes,
        timeZone: .gmt),
      providers: ProviderRegistry([]))
  }

  @Test("home rows: each source's counts, All unread and a tag from the same pass, bookmarks")
  func home() async throws {
    let services = try services()
    let channels = services.channels(providers: services.providers)
    #expect(channels.map(\.name) == ["All unread", "one", "two", "#news", "Bookmarks"])
    let reader = ChannelReader(
      services: services, channels: channels, query: TopHeadlinesQuery(), unreadOnly: false)
    // Nothing stored yet: the sources say so.
    let empty = Recorder<(Int, ChannelRow)>()
    await reader.home { empty.record(($0, $1)) }
    #expect(empty.all.first { $0.0 == 1 }?.1.status == .neverFetched)
    // Fetched once, one item read, one bookmarked.
    let one = try #require(try await reader.contents(1, offline: false))
    #expect(one.total == 2 && one.unread == 2)
    #expect(one.heading == .source("one"))
    if case .feed(.fresh, let fetchedAt) = one.freshness {
      #expect(fetchedAt != nil)
    } else {
      Issue.record("a source's answer says how it was had: \(one.freshness)")
    }
    let lists = try services.lists()
    _ = try lists.mark([one.articles[0].id], read: true)
    _ = try lists.bookmark([one.articles[1]])
    _ = try await reader.contents(2, offline: false)

    let rows = Recorder<(Int, ChannelRow)>()
    await reader.home { rows.record(($0, $1)) }
    let byIndex = Dictionary(rows.all.map { ($0.0, $0.1) }) { $1 }
    #expect(byIndex[1]?.unread == 1)
    #expect(byIndex[1]?.total == 2)
    #expect(byIndex[2]?.unread == 1 && byIndex[2]?.total == 1)
    #expect(byIndex[0] == ChannelRow(unread: 2, total: 2, status: .stored))
    #expect(byIndex[3] == ChannelRow(unread: 2, total: 3, status: .stored))
    #expect(byIndex[4] == ChannelRow(unread: 1, total: 1, status: .stored))
    // The gathering rows come after every source's.
    #expect(rows.all.map(\.0) == [1, 2, 0, 3, 4])
  }

  @Test("a hidden source has no row, nor a place in All unread, but is in its tag's list and count")
  func hiddenInTag() async throws {
    let services = try services(twoHidden: true)
    let channels = services.channels(providers: services.providers)
    #expect(channels.map(\.name) == ["All unread", "one", "#news", "Bookmarks"])
    // Its items stored, as a sync stores them.
    _ = try await services.feed().run(
      services.feedSources().filter { $0.name == "two" }, FeedRun.Options())
    let reader = ChannelReader(
      services: services, channels: channels, query: TopHeadlinesQuery(), unreadOnly: false)
    _ = try await reader.contents(1, offline: false)
    let tag = try #require(try await reader.contents(2, offline: true))
    #expect(tag.articles.map(\.title) == ["one-1", "two-1", "one-2"])
    let rows = Recorder<(Int, ChannelRow)>()
    await reader.home { rows.record(($0, $1)) }
    let byIndex = Dictionary(rows.all.map { ($0.0, $0.1) }) { $1 }
    #expect(byIndex[2] == ChannelRow(unread: 3, total: 3, status: .stored))
    #expect(byIndex[0] == ChannelRow(unread: 2, total: 2, status: .stored))
  }

  @Test("a reload of every list fetches the hidden sources: their new items, their failures")
  func reloadHidden() async throws {
    let services = try services(twoHidden: true)
    let reader = ChannelReader(
      services: services, channels: services.channels(providers: services.providers),
      query: TopHeadlinesQuery(), unreadOnly: false)
    #expect(reader.hidden.map(\.name) == ["two"])
    let first = await reader.reloadHidden()
    #expect(first.failures.isEmpty)
    #expect(server.requests(to: "/two.xml").count == 1)
    // Stored: the tag's list holds it now.
    let tag = try #require(try await reader.contents(2, offline: true))
    #expect(tag.articles.map(\.title) == ["two-1"])
    // Asked again although fresh, as R asks; a failure is its report's line, the stored items
    // standing in.
    server.route("/two.xml", LoopbackServer.Response(status: 500))
    let second = await reader.reloadHidden()
    #expect(server.requests(to: "/two.xml").count > 1)
    #expect(second.newItems.isEmpty)
    #expect(second.failures.count == 1)
    #expect(second.failures.first?.hasPrefix("source two answered HTTP 500") == true)
  }

  @Test("contents: All unread newest first across sources; --unread shows unread, counts all")
  func contents() async throws {
    let services = try services()
    let channels = services.channels(providers: services.providers)
    let all = ChannelReader(
      services: services, channels: channels, query: TopHeadlinesQuery(), unreadOnly: false)
    let one = try #require(try await all.contents(1, offline: false))
    _ = try await all.contents(2, offline: false)
    _ = try services.lists().mark([one.articles[0].id], read: true)

    let gathered = try #require(try await all.contents(0, offline: false))
    #expect(gathered.heading == .allUnread)
    #expect(gathered.articles.map(\.title) == ["two-1", "one-2"])

    let unread = ChannelReader(
      services: services, channels: channels, query: TopHeadlinesQuery(), unreadOnly: true)
    let shown = try #require(try await unread.contents(1, offline: true))
    #expect(shown.articles.map(\.title) == ["one-2"])
    #expect(shown.unread == 1 && shown.total == 2)
    #expect(shown.read == [one.articles[0].id])
  }

  @Test("a source whose answer fails throws its report's error; offline, nothing stored is nil")
  func failure() async throws {
    server.route("/one.xml", LoopbackServer.Response(status: 500))
    let services = try services()
    let reader = ChannelReader(
      services: services, channels: services.channels(providers: services.providers),
      query: TopHeadlinesQuery(), unreadOnly: false)
    #expect(try await reader.contents(1, offline: true) == nil)
    await #expect(throws: ChannelError.self) { try await reader.contents(1, offline: false) }
    // Failing run after run, it is left alone; a reload (r, R) asks it all the same.
    await #expect(throws: ChannelError.self) { try await reader.contents(1, offline: false) }
    let asked = server.requests(to: "/one.xml").count
    await #expect(throws: ChannelError.self) { try await reader.contents(1, offline: false) }
    #expect(server.requests(to: "/one.xml").count == asked, "left alone")
    await #expect(throws: ChannelError.self) {
      try await reader.contents(1, refresh: true, offline: false)
    }
    #expect(server.requests(to: "/one.xml").count > asked, "asked on a reload")
  }

  /// A Miniflux account `home` of two feeds, News (its item 1, First) and Blog, added to
  /// `services` (not synced).
  func addedAccount(to services: NewsServices) async throws -> (
    MinifluxServer, news: Int, blog: Int
  ) {
    let miniflux = MinifluxServer(server: server, user: nil, password: "key-42")
    let news = miniflux.model.addFeed(url: "https://news.example/rss", title: "News")
    let blog = miniflux.model.addFeed(url: "https://blog.example/atom", title: "Blog")
    miniflux.model.addItem(
      id: 1, feed: news, title: "First", link: "https://site.example/1", published: 1_700_000_000)
    let account = Account(name: "home", kind: .miniflux, url: server.baseURL, user: "")
    _ = try await services.accounts().add(account, password: "key-42", reserved: [])
    return (miniflux, news, blog)
  }

  @Test("an account just added: its rows not synced yet, opening one syncs it, the others count")
  func accountJustAdded() async throws {
    let services = try services()
    let (miniflux, _, blog) = try await addedAccount(to: services)
    miniflux.model.addItem(
      id: 2, feed: blog, title: "Post", link: "https://site.example/2", published: 1_700_000_100)
    let channels = services.channels(providers: services.providers)
    let row = try #require(channels.firstIndex { $0.name == "home/news" })
    let other = try #require(channels.firstIndex { $0.name == "home/blog" })
    let reader = ChannelReader(
      services: services, channels: channels, query: TopHeadlinesQuery(), unreadOnly: false)
    // From the store, nothing yet: not synced yet, not a failure.
    let rows = Mutex<[Int: ChannelRow]>([:])
    await reader.home { index, row in rows.withLock { $0[index] = row } }
    #expect(rows.withLock { $0[row]?.status } == .synced(nil))
    #expect(try await reader.contents(row, offline: true) == nil)
    // Opened (no reload asked), it is synced as a source never fetched is fetched.
    let opened = try #require(try await reader.contents(row, offline: false))
    #expect(opened.articles.map(\.title) == ["First"])
    #expect(opened.syncedAccount == "home")
    // The sync brought the blog's items: its row counts them, as of that sync.
    await reader.home { index, row in rows.withLock { $0[index] = row } }
    #expect(rows.withLock { $0[other]?.total } == 1)
    let blogRow = try #require(try await reader.contents(other, offline: false))
    #expect(blogRow.articles.map(\.title) == ["Post"])
    #expect(blogRow.syncedAccount == nil, "synced once: opening the blog asks nothing")
    #expect(server.requests(to: "/v1/me").count == 2, "one login to add, one to sync")
    #expect(miniflux.model.unknownRequests.isEmpty)
  }

  @Test("a reload of an account's feed syncs its account: its new items come, its marks go")
  func accountReload() async throws {
    let services = try services()
    let (miniflux, news, blog) = try await addedAccount(to: services)
    _ = try await services.sync().run(wait: false, only: ["home"])
    let channels = services.channels(providers: services.providers)
    let row = try #require(channels.firstIndex { $0.name == "home/news" })
    let other = try #require(channels.firstIndex { $0.name == "home/blog" })
    let reader = ChannelReader(
      services: services, channels: channels, query: TopHeadlinesQuery(), unreadOnly: false)
    miniflux.model.addItem(
      id: 2, feed: news, title: "Second", link: "https://site.example/2", published: 1_700_000_100)
    miniflux.model.addItem(
      id: 3, feed: blog, title: "Post", link: "https://site.example/3", published: 1_700_000_200)
    // Opened, the list is the store's; reloaded, the account's sync brings what came.
    let opened = try #require(try await reader.contents(row, offline: false))
    #expect(opened.articles.map(\.title) == ["First"])
    _ = try services.lists().mark([try #require(opened.articles.first).id], read: true)
    #expect(miniflux.model.item(1)?.read == false, "queued until the account's next sync")
    let logins = server.requests(to: "/v1/me").count
    let reloaded = try #require(try await reader.contents(row, refresh: true, offline: false))
    #expect(reloaded.articles.map(\.title) == ["Second", "First"])
    if case .synced(let at) = reloaded.freshness {
      #expect(at != nil)
    } else {
      Issue.record("an account's feed is as of its account's sync: \(reloaded.freshness)")
    }
    #expect(server.requests(to: "/v1/me").count == logins + 1)
    #expect(miniflux.model.item(1)?.read == true)
    // The newItem hook runs for this row's new items only (the blog's are its own row's).
    let raw = try #require(try await reader.raw(row, refresh: true, offline: false))
    #expect(raw.newItems.isEmpty, "nothing new since the reload before")
    let blogRow = try #require(try await reader.contents(other, offline: true))
    #expect(blogRow.articles.map(\.title) == ["Post"])
    #expect(miniflux.model.unknownRequests.isEmpty)
  }

  @Test(
    "account reloads: one at a time, and one sync shared by the rows asking together",
    .timeLimit(.minutes(10)))
  func accountReloadsShared() async throws {
    let reloads = AccountReloads()
    let started = Recorder<String>()
    let (gate, open) = AsyncStream<Void>.makeStream()
    let run: @Sendable (String) async -> AccountReloads.Outcome = { name in
      started.record(name)
      if name == "a" { for await _ in gate { break } }
      return .success(
        (
          SyncSourceReport(
            name: name, status: .ok, new: started.all.count, total: 0, error: nil, attempts: 1),
          Date(timeIntervalSince1970: 0)
        ))
    }
    let first = Task { await reloads.sync("a", with: run) }
    while started.all.isEmpty { await Task.yield() }
    let second = Task { await reloads.sync("a", with: run) }
    let third = Task { await reloads.sync("b", with: run) }
    // Both have reached the actor: the second shares "a", "b" waits for it.
    while await reloads.asked < 3 { await Task.yield() }
    #expect(await reloads.shared == 1)
    #expect(started.all == ["a"], "b waits for a")
    open.yield()
    let outcomes = try await [first.value, second.value, third.value].map { try $0.get().report }
    #expect(started.all == ["a", "b"])
    #expect(outcomes.map(\.name) == ["a", "a", "b"])
    #expect(outcomes[0].new == outcomes[1].new, "the second shares the first's sync")
  }
}
