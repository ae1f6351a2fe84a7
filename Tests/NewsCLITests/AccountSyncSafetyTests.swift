import FeedParsing
import Foundation
import NewsCore
import Synchronization
import TestSupport
import Testing

/// What a broken or hostile server cannot do to what is the user's: delete a bookmark by
/// deleting its item, get a mark sent twice over a newer one made elsewhere, or keep half of an
/// article's items unmarked when two server items are one article here.
@Suite("accounts: a sync keeps what is the user's")
struct AccountSyncSafetyTests {
  let harness: Harness
  let reader: GoogleReaderServer
  let start = 1_645_120_000

  init() throws {
    harness = try Harness()
    reader = GoogleReaderServer(server: harness.server, user: "ann", password: "pw")
    reader.add(.init(url: "https://news.example/rss", title: "News"))
    reader.add(.init(url: "https://other.example/rss", title: "Other"))
    for (id, feed, title, link) in [
      (1 as UInt64, "https://news.example/rss", "Kept story", "https://site.example/1"),
      (2, "https://news.example/rss", "Read story", "https://site.example/2"),
      (3, "https://news.example/rss", "Shared story", "https://site.example/shared"),
      (4, "https://other.example/rss", "Shared story", "https://site.example/shared"),
    ] {
      reader.add(
        .init(
          id: id, feedURL: feed, title: title, link: link, published: start - 3_600 + Int(id)))
    }
  }

  func addAndSync() async throws {
    let added = await harness.run(
      [
        "accounts", "add", "home", "--greader", reader.url.absoluteString, "--user", "ann",
        "--password-env", "PW",
      ], environment: ["PW": "pw"])
    #expect(added.code == .success, "\(added.err)")
    let sync = await harness.run(["sync", "--account", "home"])
    #expect(sync.code == .success, "\(sync.err)")
  }

  func id(of title: String) async throws -> String {
    let found = try await harness.run(["search", title, "--json"]).json()
    let items = try #require(found["articles"] as? [[String: Any]])
    return try #require(items.first { $0["title"] as? String == title }?["id"] as? String)
  }

  func account() async throws -> [String: Any] {
    let listed = try await harness.run(["accounts", "--json"]).json()
    return try #require((listed["accounts"] as? [[String: Any]])?.first)
  }

  func unreadTitles() async throws -> Set<String> {
    let result = await harness.run(["feed", "--unread", "--source", "home/news", "--json"])
    let items = try #require(try result.json()["items"] as? [[String: Any]])
    return Set(items.compactMap { $0["title"] as? String })
  }

  var edits: [LoopbackServer.Request] {
    harness.server.requests.filter { $0.path.hasSuffix("/edit-tag") }
  }

  @Test("an item deleted on the server keeps its bookmark, its article and its unread state")
  func deletedItemKeepsBookmark() async throws {
    reader.set(1, starred: true)
    try await addAndSync()
    let kept = try await id(of: "Kept story")
    let bookmarks = try await harness.run(["bookmarks", "--json"]).json()
    #expect((bookmarks["articles"] as? [[String: Any]])?.count == 1)

    reader.delete(1)
    let sync = await harness.run(["sync", "--account", "home"])
    #expect(sync.code == .success, "\(sync.err)")
    let after = try await harness.run(["bookmarks", "--json"]).json()
    let titles = (after["articles"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
    #expect(titles == ["Kept story"], "the bookmark stays")
    #expect(try await unreadTitles().contains("Kept story"), "not marked read")
    #expect(try await id(of: "Kept story") == kept, "the article stays")
    #expect(try await account()["goneBookmarks"] as? Int == 1)
    let text = await harness.run(["accounts"])
    #expect(text.out.contains("1 bookmark gone from the server (kept here)"), "\(text.out)")
    // Nothing is queued for an item the server no longer has.
    #expect(await harness.run(["unbookmark", kept]).code == .success)
    #expect(try await account()["pendingMarks"] as? Int == 0)
  }

  @Test("a mark the server took leaves the queue then: failed syncs never send it again")
  func acceptedMarkNeverResent() async throws {
    try await addAndSync()
    let read = try await id(of: "Read story")
    #expect(await harness.run(["read", read]).code == .success)
    #expect(try await account()["pendingMarks"] as? Int == 1)
    let listed = await harness.run(["accounts"])
    #expect(listed.out.contains(", 1 mark to send\n"), "\(listed.out)")

    let failing = Mutex(true)
    harness.server.route(GoogleReaderServer.path + "/reader/api/0/stream/items/ids") {
      [reader] request in
      failing.withLock { $0 } ? .json("", status: 500) : reader.answer(request)
    }
    for _ in 0..<3 {
      let sync = await harness.run(
        ["sync", "--account", "home"], environment: ["NEWS_RETRY_DELAY": "0"])
      #expect(sync.code != .success)
    }
    #expect(edits.count == 1, "sent once, by the first failed sync")
    #expect(try await account()["pendingMarks"] as? Int == 0)
    #expect(reader.item(2)?.read == true)

    // Another client marks it unread; the next sync must not overwrite that.
    reader.set(2, read: false)
    failing.withLock { $0 = false }
    let sync = await harness.run(["sync", "--account", "home"])
    #expect(sync.code == .success, "\(sync.err)")
    #expect(edits.count == 1)
    #expect(reader.item(2)?.read == false)
    #expect(try await unreadTitles().contains("Read story"))
  }

  @Test("two server items with one link are one article: a mark goes to both")
  func oneArticleSeveralItems() async throws {
    try await addAndSync()
    let search = try await harness.run(["search", "Shared story", "--json"]).json()
    #expect((search["articles"] as? [[String: Any]])?.count == 1, "one article")
    let shared = try await id(of: "Shared story")
    #expect(await harness.run(["read", shared]).code == .success)
    #expect(await harness.run(["bookmark", shared]).code == .success)
    #expect(try await account()["pendingMarks"] as? Int == 4)
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    #expect(reader.item(3)?.read == true && reader.item(4)?.read == true)
    #expect(reader.item(3)?.starred == true && reader.item(4)?.starred == true)
    let sent = edits.map { GoogleReaderServer.form($0.body).filter { $0.0 == "i" }.count }
    #expect(sent == [2, 2], "one request a change, with both items")
  }

  /// Flips a byte in the middle of the store file `name` (`accounts`).
  func damage(_ name: String) throws {
    try flipMiddleByte(of: URL(fileURLWithPath: harness.home.path("news/\(name).enc")))
  }

  @Test("a damaged accounts.enc: reading and bookmarks go on with a warning; repair removes it")
  func damagedAccounts() async throws {
    try await addAndSync()
    let story = try await id(of: "Read story")
    try damage("accounts")
    let read = await harness.run(["read", story])
    #expect(read.code == .success, "\(read.err)")
    #expect(read.err.contains("not queued for your account's server"), "\(read.err)")
    #expect(await harness.run(["bookmark", story]).code == .success)
    let sources = await harness.run(["sources"])
    #expect(sources.err.contains("your accounts' sources are left out"), "\(sources.err)")
    let doctor = await harness.run(["doctor", "--repair"])
    #expect(doctor.out.contains("accounts.enc: the accounts and passwords in it could not be read"))
    #expect(await harness.run(["doctor"]).code == .success)
    #expect(await harness.run(["unread", story]).code == .success)
  }

  @Test("accounts remove with a damaged account state still forgets the account's articles")
  func removeWithDamagedState() async throws {
    try await addAndSync()
    try damage("account-home")
    let removed = await harness.run(["accounts", "remove", "home"])
    #expect(removed.code == .success, "\(removed.err)")
    #expect(removed.out.contains("2 sources and their items"), "\(removed.out)")
    let found = try await harness.run(["search", "story", "--json"]).json()
    #expect((found["articles"] as? [[String: Any]])?.isEmpty == true)
  }

  @Test("a server refusing the edit token it just gave is its fault: not a wrong password")
  func badTokenLoop() async throws {
    try await addAndSync()
    #expect(await harness.run(["read", try await id(of: "Read story")]).code == .success)
    harness.server.route(GoogleReaderServer.path + "/reader/api/0/edit-tag") { _ in
      LoopbackServer.Response(status: 401, headers: ["X-Reader-Google-Bad-Token": "true"])
    }
    let sync = await harness.run(["sync", "--account", "home", "--json"])
    #expect(sync.code == .unavailable)
    let error = try #require((try sync.json()["sources"] as? [[String: Any]])?.first?["error"])
    #expect("\(error)".contains("refused the edit token it had just given"), "\(error)")
    #expect(!"\(error)".contains("password"))
    #expect(try await account()["pendingMarks"] as? Int == 1)
  }

  @Test("read --all --source of an account's feed is one mark of the feed, not one an item")
  func wholeFeedRead() async throws {
    try await addAndSync()
    let result = await harness.run(["read", "--all", "--source", "home/news"])
    #expect(result.code == .success, "\(result.err)")
    #expect(result.out.contains("marked read: 3 articles"), "\(result.out)")
    #expect(try await account()["pendingMarks"] as? Int == 1)
    #expect(await harness.run(["sync", "--account", "home"]).code == .success)
    let marks = harness.server.requests.filter { $0.path.hasSuffix("/mark-all-as-read") }
    #expect(marks.count == 1)
    #expect(edits.isEmpty, "no mark an item")
    #expect(reader.item(1)?.read == true && reader.item(3)?.read == true)
    #expect(reader.item(4)?.read == false, "the other feed's item stays unread")
    #expect(try await unreadTitles().isEmpty)
  }
}
