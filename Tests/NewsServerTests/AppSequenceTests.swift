import Foundation
import NewsCore
import TestSupport
import Testing

@testable import NewsServer

/// The call sequences real apps make (from their sources and their users' logs), each signed in
/// as the app signs in.
@Suite("news serve: the apps' own sequences")
struct AppSequenceTests {
  static let login = ServerLogin(user: "ann", password: "pw", fever: true, iterations: 2)

  func signIn(_ served: ServedStore) throws -> String {
    let answer = try served.ask(
      "/accounts/ClientLogin", form: [("Email", "ann"), ("Passwd", "pw")])
    #expect(answer.status == 200)
    let line = answer.text.split(separator: "\n").first { $0.hasPrefix("Auth=") }
    return String(try #require(line).dropFirst(5))
  }

  @Test("FeedMe: user-info right after login, starred ids n=500&ot=0, unread-count")
  func feedMe() throws {
    let served = try ServedStore(login: Self.login)
    let auth = try signIn(served)
    #expect(try served.reader("user-info?output=json", auth: auth)["userName"] as? String == "ann")
    let starred = try served.reader(
      "stream/items/ids?output=json&s=user/-/state/com.google/starred&n=500&ot=0", auth: auth)
    #expect((starred["itemRefs"] as? [[String: Any]])?.isEmpty == true)
    let counts = try served.reader("unread-count?output=json", auth: auth)
    #expect((counts["unreadcounts"] as? [[String: Any]])?.isEmpty == false)
  }

  @Test("News+: the reading list without the read, a continuation, n=1000")
  func newsPlus() throws {
    let served = try ServedStore(login: Self.login)
    let auth = try signIn(served)
    let first = try served.reader(
      "stream/contents/user/-/state/com.google/reading-list?xt=user/-/state/com.google/read"
        + "&n=3&output=json", auth: auth)
    let continuation = try #require(first["continuation"] as? String)
    let rest = try served.reader(
      "stream/contents/user/-/state/com.google/reading-list?xt=user/-/state/com.google/read"
        + "&c=\(continuation)&n=1000&output=json", auth: auth)
    let titles =
      ((first["items"] as? [[String: Any]] ?? []) + (rest["items"] as? [[String: Any]] ?? []))
      .compactMap { $0["title"] as? String }
    #expect(titles == ["Beta", "Alpha", "Third", "Second urgent", "First"])
    #expect(rest["continuation"] == nil)
  }

  @Test("Fluent Reader: stream/contents without a stream, items with canonical links")
  func fluentReader() throws {
    let served = try ServedStore(login: Self.login)
    let auth = try signIn(served)
    let answer = try served.reader("stream/contents?output=json&n=2", auth: auth)
    #expect(answer["id"] as? String == "user/-/state/com.google/reading-list")
    let items = answer["items"] as? [[String: Any]] ?? []
    #expect(items.count == 2)
    #expect(
      items.allSatisfy { (($0["canonical"] as? [[String: Any]])?.first?["href"] as? String) != nil }
    )
  }

  @Test("Unread: POST items/contents with the ids, then an app that asks /token before each write")
  func unreadAndTokens() throws {
    let served = try ServedStore(login: Self.login)
    let auth = try signIn(served)
    let ids = try served.ids("s=user/-/state/com.google/reading-list&n=3")
    let contents = try served.ask(
      "/reader/api/0/stream/items/contents", form: ids.map { ("i", String($0)) }, auth: auth)
    #expect((try contents.json()["items"] as? [[String: Any]])?.count == 3)
    for id in ids {
      let token = try served.ask("/reader/api/0/token", auth: auth).text
        .trimmingCharacters(in: .newlines)
      let marked = try served.ask(
        "/reader/api/0/edit-tag",
        form: [("i", String(id)), ("a", "user/-/state/com.google/read"), ("T", token)],
        auth: auth)
      #expect(marked.status == 200)
    }
    #expect(Set(try served.ids("s=user/-/state/com.google/read&n=10")) == Set(ids))
  }

  @Test("folders from the phone: a feed filed and unfiled, a label renamed and taken off")
  func folders() throws {
    let served = try ServedStore(login: Self.login)
    let auth = try signIn(served)
    let token = try served.ask("/reader/api/0/token", auth: auth).text
      .trimmingCharacters(in: .newlines)
    func post(_ endpoint: String, _ form: [(String, String)]) throws {
      let answer = try served.ask(
        "/reader/api/0/" + endpoint, form: form + [("T", token)], auth: auth)
      #expect(answer.status == 200, "\(endpoint): \(answer.text)")
    }
    func folders(_ feed: String) throws -> [String] {
      let list =
        try served.reader("subscription/list", auth: auth)["subscriptions"] as? [[String: Any]]
      let entry = list?.first { $0["id"] as? String == "feed/" + feed }
      return (entry?["categories"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String }
    }
    try post("subscription/edit", [("ac", "edit"), ("s", "feed/two"), ("a", "user/-/label/Later")])
    #expect(try folders("two") == ["Later"])
    try post("rename-tag", [("s", "user/-/label/news"), ("dest", "user/-/label/World")])
    #expect(try folders("one") == ["World"])
    try post("disable-tag", [("s", "user/-/label/World")])
    #expect(try folders("one").isEmpty)
    try post("subscription/edit", [("ac", "edit"), ("s", "feed/two"), ("r", "user/-/label/Later")])
    #expect(try folders("two").isEmpty)
    let unknown = try served.ask(
      "/reader/api/0/subscription/edit",
      form: [("ac", "edit"), ("s", "feed/none"), ("a", "x"), ("T", token)],
      auth: auth)
    #expect(unknown.status == 400)
    let badAction = try served.ask(
      "/reader/api/0/subscription/edit", form: [("ac", "eat"), ("s", "feed/two"), ("T", token)],
      auth: auth)
    #expect(badAction.status == 400)
  }

  @Test("subscription/quickadd: the feed fetched and kept, listed, its items served")
  func quickAdd() async throws {
    let served = try ServedStore(login: Self.login)
    let feeds = try LoopbackServer()
    let rss =
      "<rss version=\"2.0\"><channel><title>Quick</title><item><title>Added from a phone</title>"
      + "<link>https://quick.example/1</link></item></channel></rss>"
    feeds.route(
      "/quick.xml",
      LoopbackServer.Response(
        headers: ["Content-Type": "application/rss+xml"], body: Data(rss.utf8)))
    let auth = try signIn(served)
    let token = try served.ask("/reader/api/0/token", auth: auth).text
      .trimmingCharacters(in: .newlines)
    let url = feeds.baseURL.absoluteString + "/quick.xml"
    // Subscribing waits for the fetch: asked from a thread of its own, as a connection's
    // thread asks (never one of the two threads the other tests' tasks run on).
    let added = try await ServedStore.onThread {
      try served.ask(
        "/reader/api/0/subscription/quickadd", form: [("quickadd", url), ("T", token)],
        auth: auth)
    }
    #expect(added.status == 200, "\(added.text)")
    let stream = try #require(try added.json()["streamId"] as? String)
    let list =
      try served.reader("subscription/list", auth: auth)["subscriptions"] as? [[String: Any]]
    #expect(list?.contains { $0["id"] as? String == stream && $0["url"] as? String == url } == true)
    let items =
      try served.reader("stream/contents/" + stream, auth: auth)["items"] as? [[String: Any]]
    #expect(items?.compactMap { $0["title"] as? String } == ["Added from a phone"])
    let notHTTP = try served.ask(
      "/reader/api/0/subscription/quickadd",
      form: [("quickadd", "file:///etc/passwd"), ("T", token)],
      auth: auth)
    #expect(notHTTP.status == 400)
    // A feed:// link, as an app passes one on, is its http:// address.
    feeds.route(
      "/other.xml",
      LoopbackServer.Response(
        headers: ["Content-Type": "application/rss+xml"],
        body: Data(rss.replacingOccurrences(of: "Quick", with: "Other").utf8)))
    let feedLink =
      "feed://" + feeds.baseURL.absoluteString.dropFirst("http://".count) + "/other.xml"
    let viaFeed = try await ServedStore.onThread {
      try served.ask(
        "/reader/api/0/subscription/quickadd", form: [("quickadd", feedLink), ("T", token)],
        auth: auth)
    }
    #expect(viaFeed.status == 200, "\(viaFeed.text)")
    #expect(feeds.requests(to: "/other.xml").count == 1)
    #expect(feeds.unexpectedRequests.isEmpty)
  }
}
