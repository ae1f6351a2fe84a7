import Foundation
import Synchronization

/// A Google Reader API server on a ``LoopbackServer``, following the published protocol as
/// FreshRSS and Miniflux answer it: `ClientLogin` (form `Email`, `Passwd`; `Auth=` or 401),
/// `GoogleLogin auth=` on every request (401 without), the `T` token (`token`; an `edit-tag` with
/// a stale one gets 401 and `X-Reader-Google-Bad-Token: true`), `subscription/list`,
/// `stream/contents` newest first with `n`, `c` (continuation) and `ot`, `stream/items/ids` with
/// `s`, `xt`, `n`, `c` (short decimal ids), `stream/items/contents` (`i`, the items that exist),
/// `mark-all-as-read` (`s`, `ts` in microseconds), `edit-tag` (`i` long or short, `a`/`r`) and
/// `subscription/edit`. Anything else is an unexpected request.
public final class GoogleReaderServer: Sendable {
  /// A subscription.
  public struct Feed: Sendable {
    public var url: String
    public var title: String
    public var folders: [String]
    public var id: String { "feed/" + url }
    /// The site it is of (``ReaderModel/site(of:)``).
    public var site: String { ReaderModel.site(of: url) }

    public init(url: String, title: String, folders: [String] = []) {
      self.url = url
      self.title = title
      self.folders = folders
    }
  }

  /// An item.
  public struct Item: Sendable {
    public var id: UInt64
    public var feedURL: String
    public var title: String
    public var link: String
    public var content: String
    /// Seconds since 1970: when it was published (and crawled, for `ot`).
    public var published: Int
    public var read = false
    public var starred = false

    public init(
      id: UInt64, feedURL: String, title: String, link: String, content: String = "",
      published: Int
    ) {
      self.id = id
      self.feedURL = feedURL
      self.title = title
      self.link = link
      self.content = content
      self.published = published
    }
  }

  private struct State {
    var feeds: [Feed] = []
    var items: [Item] = []
    var token = "T1"
    var tokens = 1
    var logins = 0
    var rotates = false
    var badTokenHeader = "X-Reader-Google-Bad-Token"
  }

  /// The address of the loopback server it answers on (the server holds this fake, not the
  /// other way round: a fake that held its server would keep it from ever stopping).
  public let baseURL: URL
  public let user: String
  public let password: String
  /// The most items or ids a page holds, whatever `n` asks (servers cap it): small in tests, so
  /// that continuations are followed.
  public let maximumPage: Int
  private let state = Mutex(State())
  private static let auth = "auth-token-42"
  public static let path = "/api/greader.php"

  /// The URL `news accounts add --greader` takes.
  public var url: URL { URL(string: baseURL.absoluteString + Self.path)! }

  /// Serves the API under `/api/greader.php` of `server`.
  public init(server: LoopbackServer, user: String, password: String, maximumPage: Int = 1_000) {
    self.maximumPage = maximumPage
    self.baseURL = server.baseURL
    self.user = user
    self.password = password
    server.route(prefix: Self.path + "/") { [self] request in answer(request) }
  }

  public func add(_ feed: Feed) { state.withLock { $0.feeds.append(feed) } }
  public func add(_ item: Item) { state.withLock { $0.items.append(item) } }
  /// Marks made "on another device".
  public func set(_ id: UInt64, read: Bool? = nil, starred: Bool? = nil) {
    state.withLock { state in
      guard let index = state.items.firstIndex(where: { $0.id == id }) else { return }
      if let read { state.items[index].read = read }
      if let starred { state.items[index].starred = starred }
    }
  }
  /// Deletes an item on the server (as a server purging old items, or an unsubscribed feed's).
  public func delete(_ id: UInt64) { state.withLock { $0.items.removeAll { $0.id == id } } }
  public func item(_ id: UInt64) -> Item? { state.withLock { $0.items.first { $0.id == id } } }
  public var feeds: [Feed] { state.withLock { $0.feeds } }
  public var logins: Int { state.withLock { $0.logins } }
  /// Makes the edit token go stale after every change (as a short-lived token does): the next
  /// change is refused until a new one is fetched.
  /// Says a stale token with `header` (FreshRSS's `Google-Bad-Token`) instead of Miniflux's.
  public func sayBadToken(with header: String) {
    state.withLock { $0.badTokenHeader = header }
  }

  public func rotateTokenAfterEachChange() {
    state.withLock { $0.rotates = true }
  }

  /// The form fields of a POST body, in order.
  public static func form(_ body: Data) -> [(String, String)] {
    String(decoding: body, as: UTF8.self).split(separator: "&").map { pair in
      let parts = pair.split(separator: "=", maxSplits: 1).map {
        String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
      }
      return (parts[0], parts.count > 1 ? parts[1] : "")
    }
  }

  /// The query items of a request, in order (names may repeat).
  private static func query(_ request: LoopbackServer.Request) -> [(String, String)] {
    form(Data(request.rawQuery.utf8))
  }

  /// The API's answer to `request` (a test that overrides a route may still answer with it).
  public func answer(_ request: LoopbackServer.Request) -> LoopbackServer.Response {
    let path = String(request.path.dropFirst(Self.path.count + 1))
    if path == "accounts/ClientLogin" {
      let fields = Dictionary(Self.form(request.body), uniquingKeysWith: { first, _ in first })
      guard request.method == "POST", fields["Email"] == user, fields["Passwd"] == password else {
        return LoopbackServer.Response(status: 401, body: Data("Error=BadAuthentication\n".utf8))
      }
      state.withLock { $0.logins += 1 }
      return LoopbackServer.Response(
        body: Data("SID=none\nLSID=none\nAuth=\(Self.auth)\n".utf8))
    }
    guard
      request.headers["authorization"]?.trimmingCharacters(in: .whitespaces)
        == "GoogleLogin auth=\(Self.auth)"
    else { return LoopbackServer.Response(status: 401, body: Data("Unauthorized".utf8)) }
    let query = Self.query(request)
    func value(_ name: String) -> String? { query.first { $0.0 == name }?.1 }
    switch path {
    case "reader/api/0/token":
      return LoopbackServer.Response(body: Data((state.withLock { $0.token } + "\n").utf8))
    case "reader/api/0/subscription/list":
      let feeds = state.withLock { $0.feeds }
      return json([
        "subscriptions": feeds.map { feed in
          [
            "id": feed.id, "title": feed.title, "url": feed.url, "htmlUrl": feed.site,
            "categories": feed.folders.map { ["id": "user/-/label/\($0)", "label": $0] },
          ] as [String: Any]
        }
      ])
    case "reader/api/0/stream/contents/user/-/state/com.google/reading-list":
      let since = value("ot").flatMap(Int.init) ?? 0
      let all = state.withLock { $0.items }.filter { $0.published >= since }
        .sorted { ($0.published, $0.id) > ($1.published, $1.id) }
      let (page, next) = page(all, count: value("n"), continuation: value("c"))
      var body: [String: Any] = ["items": page.map(Self.content)]
      if let next { body["continuation"] = next }
      return json(body)
    case "reader/api/0/stream/items/ids":
      let stream = value("s") ?? ""
      let excluded = value("xt")
      let all = state.withLock { $0.items }.filter { item in
        (stream != "user/-/state/com.google/starred" || item.starred)
          && (excluded != "user/-/state/com.google/read" || !item.read)
      }.sorted { $0.id > $1.id }
      let (page, next) = page(all, count: value("n"), continuation: value("c"))
      var body: [String: Any] = ["itemRefs": page.map { ["id": String($0.id)] }]
      if let next { body["continuation"] = next }
      return json(body)
    case "reader/api/0/stream/items/contents":
      let ids = Set(Self.form(request.body).filter { $0.0 == "i" }.compactMap { Self.parse($0.1) })
      let found = state.withLock { $0.items }.filter { ids.contains($0.id) }
      return json(["items": found.map(Self.content)])
    case "reader/api/0/mark-all-as-read":
      let fields = Dictionary(Self.form(request.body), uniquingKeysWith: { first, _ in first })
      guard fields["T"] == state.withLock({ $0.token }), let stream = fields["s"],
        stream.hasPrefix("feed/"), let ts = fields["ts"].flatMap(Int64.init)
      else { return LoopbackServer.Response(status: 400) }
      state.withLock { state in
        for index in state.items.indices
        where "feed/" + state.items[index].feedURL == stream
          && Int64(state.items[index].published) * 1_000_000 <= ts
        {
          state.items[index].read = true
        }
      }
      return LoopbackServer.Response(body: Data("OK".utf8))
    case "reader/api/0/edit-tag", "reader/api/0/subscription/edit":
      let fields = Self.form(request.body)
      guard request.method == "POST" else { return LoopbackServer.Response(status: 405) }
      guard fields.first(where: { $0.0 == "T" })?.1 == state.withLock({ $0.token }) else {
        return LoopbackServer.Response(
          status: 401, headers: [state.withLock { $0.badTokenHeader }: "true"], body: Data())
      }
      path == "reader/api/0/edit-tag" ? edit(fields) : subscribe(fields)
      state.withLock { state in
        guard state.rotates else { return }
        state.tokens += 1
        state.token = "T\(state.tokens)"
      }
      return LoopbackServer.Response(body: Data("OK".utf8))
    default:
      return LoopbackServer.Response(status: 404, body: Data("no such API".utf8))
    }
  }

  private func edit(_ fields: [(String, String)]) {
    let ids = fields.filter { $0.0 == "i" }.compactMap { Self.parse($0.1) }
    let added = fields.filter { $0.0 == "a" }.map(\.1)
    let removed = fields.filter { $0.0 == "r" }.map(\.1)
    state.withLock { state in
      for index in state.items.indices where ids.contains(state.items[index].id) {
        if added.contains("user/-/state/com.google/read") { state.items[index].read = true }
        if removed.contains("user/-/state/com.google/read") { state.items[index].read = false }
        if added.contains("user/-/state/com.google/starred") { state.items[index].starred = true }
        if removed.contains("user/-/state/com.google/starred") {
          state.items[index].starred = false
        }
      }
    }
  }

  private func subscribe(_ fields: [(String, String)]) {
    let action = fields.first { $0.0 == "ac" }?.1
    guard let stream = fields.first(where: { $0.0 == "s" })?.1, stream.hasPrefix("feed/") else {
      return
    }
    let url = String(stream.dropFirst(5))
    let folders = fields.filter { $0.0 == "a" }.map {
      $0.1.components(separatedBy: "/label/").last!
    }
    state.withLock { state in
      state.feeds.removeAll { $0.url == url }
      if action == "subscribe" { state.feeds.append(Feed(url: url, title: url, folders: folders)) }
    }
  }

  /// `tag:google.com,2005:reader/item/000000000000001f` or `31` → 31.
  static func parse(_ id: String) -> UInt64? {
    if id.hasPrefix("tag:google.com"), let hex = id.split(separator: "/").last {
      return UInt64(hex, radix: 16)
    }
    return UInt64(id)
  }

  private func page<T>(_ all: [T], count: String?, continuation: String?) -> ([T], String?) {
    let size = min(maximumPage, max(1, count.flatMap(Int.init) ?? 20))
    let start = min(all.count, continuation.flatMap(Int.init) ?? 0)
    let end = min(all.count, start + size)
    return (Array(all[start..<end]), end < all.count ? String(end) : nil)
  }

  private static func content(_ item: Item) -> [String: Any] {
    let hex = String(item.id, radix: 16)
    var categories = ["user/-/state/com.google/reading-list"]
    if item.read { categories.append("user/-/state/com.google/read") }
    if item.starred { categories.append("user/-/state/com.google/starred") }
    return [
      "id": "tag:google.com,2005:reader/item/" + String(repeating: "0", count: 16 - hex.count)
        + hex,
      "title": item.title, "published": item.published, "updated": item.published,
      "canonical": [["href": item.link]], "alternate": [["href": item.link, "type": "text/html"]],
      "summary": ["content": item.content], "author": "Ann",
      "origin": ["streamId": "feed/" + item.feedURL, "title": item.feedURL],
      "categories": categories,
    ]
  }

  private func json(_ object: [String: Any]) -> LoopbackServer.Response {
    let data =
      (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    return LoopbackServer.Response(
      status: 200, headers: ["Content-Type": "application/json"], body: data)
  }
}
