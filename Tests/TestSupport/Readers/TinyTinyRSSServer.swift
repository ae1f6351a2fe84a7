import Foundation
import Synchronization

/// Tiny Tiny RSS's API (`/tt-rss/api/`, a POST of a JSON body naming its `op`) over a
/// ``ReaderModel``, as its documentation gives it: every answer a `{seq, status, content}`
/// envelope (`status` 1 with `{"error": …}` on failure), `login` (a `session_id`;
/// `LOGIN_ERROR`), `NOT_LOGGED_IN` for a missing or ended session, `API_DISABLED` when turned
/// off, `getCategories`, `getFeeds`, `getHeadlines` (`feed_id` -4 all, -1 starred; `view_mode`,
/// `since_id`, `limit` at most 200, `skip`, `content` only with `show_content`, `attachments`
/// only with `include_attachments`, as the real one answers), `getArticle` (with both),
/// `updateArticle` (`article_ids` comma-separated, `field` 0 starred / 2 unread, `mode`),
/// `catchupFeed`, `subscribeToFeed` and `unsubscribeFeed`.
public final class TinyTinyRSSServer: AccountServerFake {
  /// The address of the loopback server it answers on (the server holds this fake, not the
  /// other way round: a fake that held its server would keep it from ever stopping).
  public let baseURL: URL
  public let model = ReaderModel()
  public let user: String
  public let password: String
  public let kind = "ttrss"
  public static let path = "/tt-rss/api/"
  public var pathPrefix: String { Self.path }
  public var loginPath: String { Self.path }
  private let sessions = Mutex((current: Set<String>(), issued: 0, disabled: false))

  public init(server: LoopbackServer, user: String, password: String) {
    self.baseURL = server.baseURL
    self.user = user
    self.password = password
    server.route(Self.path) { [self] request in answer(request) }
  }

  public var addArguments: [String] {
    ["--ttrss", baseURL.absoluteString + "/tt-rss/", "--user", user]
  }

  /// How many sessions `login` gave.
  public var logins: Int { sessions.withLock { $0.issued } }

  /// Ends every session (as the server's session lifetime does).
  public func expireSessions() { sessions.withLock { $0.current.removeAll() } }

  /// Turns the API off for the user (`API_DISABLED`).
  public func disableAPI() { sessions.withLock { $0.disabled = true } }

  public func isMark(_ request: LoopbackServer.Request) -> Bool {
    Self.operation(request) == "updateArticle"
  }

  public func isFeedMark(_ request: LoopbackServer.Request) -> Bool {
    Self.operation(request) == "catchupFeed"
  }

  /// Whether `request` is a `login`.
  public static func isLogin(_ request: LoopbackServer.Request) -> Bool {
    operation(request) == "login"
  }

  static func operation(_ request: LoopbackServer.Request) -> String? {
    LoopbackServer.Response.body(request)["op"] as? String
  }

  private func envelope(_ content: Any) -> LoopbackServer.Response {
    .json(object: ["seq": 0, "status": 0, "content": content])
  }

  private func failure(_ error: String) -> LoopbackServer.Response {
    .json(object: ["seq": 0, "status": 1, "content": ["error": error]])
  }

  public func answer(_ request: LoopbackServer.Request) -> LoopbackServer.Response {
    guard request.method == "POST" else { return model.unknown(request) }
    let body = LoopbackServer.Response.body(request)
    if sessions.withLock({ $0.disabled }) { return failure("API_DISABLED") }
    if body["op"] as? String == "login" {
      guard body["user"] as? String == user, body["password"] as? String == password else {
        return failure("LOGIN_ERROR")
      }
      let id = sessions.withLock { state in
        state.issued += 1
        let id = "sid-\(state.issued)"
        state.current.insert(id)
        return id
      }
      return envelope(["session_id": id, "api_level": 18])
    }
    guard let sid = body["sid"] as? String, sessions.withLock({ $0.current.contains(sid) }) else {
      return failure("NOT_LOGGED_IN")
    }
    switch body["op"] as? String {
    case "getCategories":
      return envelope(
        model.folders.enumerated().map { ["id": $0.offset + 1, "title": $0.element, "unread": 0] })
    case "getFeeds":
      return envelope(
        model.feeds.map { feed in
          [
            "id": feed.id, "title": feed.title, "feed_url": feed.url, "unread": 0,
            "has_icon": false, "last_updated": 1_645_000_000, "order_id": 0,
            "cat_id": feed.folder.flatMap { model.folders.firstIndex(of: $0) }.map { $0 + 1 } ?? 0,
          ] as [String: Any]
        })
    case "getHeadlines":
      return envelope(headlines(body))
    case "getArticle":
      let ids = integers(body["article_id"])
      return envelope(
        model.items.filter { ids.contains($0.id) }.map {
          headline($0, content: true, attachments: true)
        })
    case "updateArticle":
      let ids = integers(body["article_ids"])
      let on = integer(body["mode"]) == 1
      switch integer(body["field"]) {
      case 0: model.set(ids, starred: on)
      case 2: model.set(ids, read: !on)
      default: return failure("INCORRECT_USAGE")
      }
      return envelope(["status": "OK", "updated": ids.count])
    case "catchupFeed":
      guard let feed = integer(body["feed_id"]) else { return failure("INCORRECT_USAGE") }
      model.markFeedRead(feed)
      return envelope(["status": "OK"])
    case "subscribeToFeed":
      guard let url = body["feed_url"] as? String else { return failure("INCORRECT_USAGE") }
      let category = integer(body["category_id"]) ?? 0
      let folders = model.folders
      if URL(string: url)?.host == ReaderModel.unreachableHost {
        return envelope(["status": ["code": 5, "message": "Couldn't download the URL content"]])
      }
      let exists = model.feeds.contains { $0.url == url }
      model.subscribe(
        url, folder: category >= 1 && category <= folders.count ? folders[category - 1] : nil)
      return envelope(["status": ["code": exists ? 0 : 1]])
    case "unsubscribeFeed":
      guard let feed = integer(body["feed_id"]), model.feeds.contains(where: { $0.id == feed })
      else { return failure("FEED_NOT_FOUND") }
      model.unsubscribe(feed)
      return envelope(["status": "OK"])
    default:
      return model.unknown(request)
    }
  }

  private func headlines(_ body: [String: Any]) -> [[String: Any]] {
    var items = model.items.sorted { $0.id < $1.id }
    if integer(body["feed_id"]) == -1 { items = items.filter(\.starred) }
    if body["view_mode"] as? String == "unread" { items = items.filter { !$0.read } }
    if let since = integer(body["since_id"]) { items = items.filter { $0.id > since } }
    let skip = integer(body["skip"]) ?? 0
    let limit = min(200, integer(body["limit"]) ?? 200)
    let content = (body["show_content"] as? Bool) ?? false
    let attachments = (body["include_attachments"] as? Bool) ?? false
    return items.dropFirst(skip).prefix(limit).map {
      headline($0, content: content, attachments: attachments)
    }
  }

  private func headline(_ item: ReaderModel.Item, content: Bool, attachments: Bool)
    -> [String: Any]
  {
    var headline: [String: Any] = [
      "id": item.id, "unread": !item.read, "marked": item.starred, "published": false,
      "updated": item.published, "is_updated": false, "title": item.title, "link": item.link,
      "feed_id": String(item.feed), "tags": [""], "author": "Ann", "feed_title": "",
    ]
    if content { headline["content"] = item.content }
    if attachments {
      headline["attachments"] =
        item.enclosure.map {
          [["id": 1, "content_url": $0.url, "content_type": $0.type, "duration": "", "title": ""]]
        } ?? []
    }
    return headline
  }
}
