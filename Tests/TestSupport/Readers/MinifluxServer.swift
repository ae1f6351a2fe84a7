import Foundation

/// Miniflux's API (`/v1/`) over a ``ReaderModel``, as its documentation gives it: `X-Auth-Token`
/// or HTTP Basic (401 otherwise), `/v1/me`, `/v1/categories` (GET, POST), `/v1/feeds` (GET, POST,
/// DELETE `/v1/feeds/{id}`, PUT `…/mark-all-as-read`), `/v1/entries` with `status`, `starred`,
/// `after_entry_id`, `changed_after`, `order`/`direction`, `limit`/`offset` and `total`,
/// `/v1/entries/{id}` (404 once deleted), `PUT /v1/entries` (`entry_ids`, `status`) and the
/// bookmark toggle. Entries carry `changed_at` as the change's stamp in seconds.
public final class MinifluxServer: AccountServerFake {
  /// The address of the loopback server it answers on (the server holds this fake, not the
  /// other way round: a fake that held its server would keep it from ever stopping).
  public let baseURL: URL
  public let model = ReaderModel()
  public let user: String?
  public let password: String
  /// The most entries a page holds, whatever `limit` asks.
  public let maximumPage: Int
  public let kind = "miniflux"
  public let pathPrefix = "/v1/"
  public let loginPath = "/v1/me"

  /// Serves the API on `server`; with `user` nil, `password` is an API key.
  public init(server: LoopbackServer, user: String?, password: String, maximumPage: Int = 100) {
    self.baseURL = server.baseURL
    self.user = user
    self.password = password
    self.maximumPage = maximumPage
    server.route(prefix: "/v1/") { [self] request in answer(request) }
  }

  public var addArguments: [String] {
    ["--miniflux", baseURL.absoluteString + "/"] + (user.map { ["--user", $0] } ?? [])
  }

  public func isMark(_ request: LoopbackServer.Request) -> Bool {
    request.method == "PUT"
      && (request.path == "/v1/entries" || request.path.hasSuffix("/bookmark"))
  }

  public func isFeedMark(_ request: LoopbackServer.Request) -> Bool {
    request.path.hasSuffix("/mark-all-as-read")
  }

  /// The stamp's seconds: Miniflux's `changed_at`.
  static func seconds(_ stamp: Int) -> Int { stamp / 1_000_000 + stamp % 1_000_000 }

  public func answer(_ request: LoopbackServer.Request) -> LoopbackServer.Response {
    let authorized =
      user == nil
      ? request.headers["x-auth-token"] == password
      : request.headers["authorization"]
        == "Basic " + Data("\(user ?? ""):\(password)".utf8).base64EncodedString()
    guard authorized else {
      return .json(object: ["error_message": "Access Unauthorized"], status: 401)
    }
    let parts = request.path.split(separator: "/").map(String.init)
    let query = request.query
    switch (request.method, parts.dropFirst().first ?? "", parts.count) {
    case ("GET", "me", 2):
      return .json(object: ["id": 1, "username": user ?? "ann"])
    case ("GET", "categories", 2):
      return .json(object: categories())
    case ("POST", "categories", 2):
      let title = LoopbackServer.Response.body(request)["title"] as? String ?? ""
      let id = model.addFolder(title)
      return .json(object: ["id": id, "title": title, "user_id": 1], status: 201)
    case ("GET", "feeds", 2):
      return .json(
        object: model.feeds.map { feed in
          [
            "id": feed.id, "title": feed.title, "feed_url": feed.url, "site_url": feed.site,
            "category": category(feed.folder),
          ] as [String: Any]
        })
    case ("POST", "feeds", 2):
      let body = LoopbackServer.Response.body(request)
      guard let url = body["feed_url"] as? String, let category = integer(body["category_id"])
      else { return .json(object: ["error_message": "missing"], status: 400) }
      if URL(string: url)?.host == ReaderModel.unreachableHost {
        return .json(
          object: ["error_message": "Unable to fetch this resource (Status Code = 404)"],
          status: 400)
      }
      let folders = model.folders
      let folder = category >= 1 && category <= folders.count ? folders[category - 1] : nil
      return .json(object: ["feed_id": model.subscribe(url, folder: folder)], status: 201)
    case ("DELETE", "feeds", 3):
      guard let id = Int(parts[2]), model.feeds.contains(where: { $0.id == id }) else {
        return .json(object: ["error_message": "not found"], status: 404)
      }
      model.unsubscribe(id)
      return LoopbackServer.Response(status: 204)
    case ("PUT", "feeds", 4) where parts[3] == "mark-all-as-read":
      guard let id = Int(parts[2]) else { return model.unknown(request) }
      model.markFeedRead(id)
      return LoopbackServer.Response(status: 204)
    case ("GET", "entries", 2):
      return entries(query)
    case ("GET", "entries", 3):
      guard let id = Int(parts[2]), let item = model.item(id) else {
        return .json(object: ["error_message": "not found"], status: 404)
      }
      return .json(object: entry(item))
    case ("PUT", "entries", 2):
      let body = LoopbackServer.Response.body(request)
      guard let status = body["status"] as? String, status == "read" || status == "unread" else {
        return .json(object: ["error_message": "bad status"], status: 400)
      }
      model.set(integers(body["entry_ids"]), read: status == "read")
      return LoopbackServer.Response(status: 204)
    case ("PUT", "entries", 4) where parts[3] == "bookmark":
      guard let id = Int(parts[2]), let item = model.item(id) else {
        return .json(object: ["error_message": "not found"], status: 404)
      }
      model.set([id], starred: !item.starred)
      return LoopbackServer.Response(status: 204)
    default:
      return model.unknown(request)
    }
  }

  private func categories() -> [[String: Any]] {
    let folders = model.folders.isEmpty ? ["All"] : model.folders
    return folders.enumerated().map { ["id": $0.offset + 1, "title": $0.element, "user_id": 1] }
  }

  private func category(_ folder: String?) -> [String: Any] {
    let index = folder.flatMap { model.folders.firstIndex(of: $0) } ?? 0
    return ["id": index + 1, "title": folder ?? "All"]
  }

  private func entries(_ query: [String: String]) -> LoopbackServer.Response {
    var items = model.items
    if let status = query["status"] { items = items.filter { $0.read == (status == "read") } }
    if query["starred"] == "true" { items = items.filter(\.starred) }
    if let after = query["after_entry_id"].flatMap(Int.init) {
      items = items.filter { $0.id > after }
    }
    if let changed = query["changed_after"].flatMap(Int.init) {
      items = items.filter { Self.seconds($0.modified) > changed }
    }
    items.sort { query["direction"] == "asc" ? $0.id < $1.id : $0.id > $1.id }
    let offset = query["offset"].flatMap(Int.init) ?? 0
    let limit = min(maximumPage, query["limit"].flatMap(Int.init) ?? maximumPage)
    let page = items.dropFirst(offset).prefix(limit)
    return .json(object: ["total": items.count, "entries": page.map(entry)])
  }

  private func entry(_ item: ReaderModel.Item) -> [String: Any] {
    let published = Date(timeIntervalSince1970: TimeInterval(item.published))
    var entry: [String: Any] = [
      "id": item.id, "user_id": 1, "feed_id": item.feed, "status": item.read ? "read" : "unread",
      "hash": "h\(item.id)", "title": item.title, "url": item.link, "comments_url": "",
      "published_at": ISO8601DateFormatter().string(from: published),
      "created_at": ISO8601DateFormatter().string(from: published),
      "changed_at": ISO8601DateFormatter().string(
        from: Date(timeIntervalSince1970: TimeInterval(Self.seconds(item.modified)))),
      "content": item.content, "author": "Ann", "starred": item.starred, "reading_time": 1,
      "enclosures": NSNull(),
    ]
    if let enclosure = item.enclosure {
      entry["enclosures"] = [
        [
          "id": 1, "user_id": 1, "entry_id": item.id, "url": enclosure.url,
          "mime_type": enclosure.type, "size": 1234,
        ]
      ]
    }
    return entry
  }
}
