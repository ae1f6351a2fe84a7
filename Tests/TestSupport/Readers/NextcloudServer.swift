import Foundation

/// Nextcloud News's API v1.3 (`/index.php/apps/news/api/v1-3/`) over a ``ReaderModel``, as its
/// documentation gives it: HTTP Basic (401 otherwise), `version`, `folders` (GET, POST), `feeds`
/// (GET, POST with `url` and `folderId`, DELETE `feeds/{id}`, POST `feeds/{id}/read` with
/// `newestItemId`), `items` newest first with `type`, `id`, `getRead`, `batchSize` (-1: all) and
/// `offset` (ids below it), `items/updated` (`lastModified` at least the one given), and the
/// `items/{read,unread,star,unstar}/multiple` marks by `itemIds`. Items carry `lastModified` as
/// a string (v1.3's type) and a `guidHash`.
public final class NextcloudServer: AccountServerFake {
  /// The address of the loopback server it answers on (the server holds this fake, not the
  /// other way round: a fake that held its server would keep it from ever stopping).
  public let baseURL: URL
  public let model = ReaderModel()
  public let user: String
  public let password: String
  public let kind = "nextcloud"
  public static let path = "/index.php/apps/news/api/v1-3/"
  public var pathPrefix: String { Self.path }
  public var loginPath: String { Self.path + "version" }

  public init(server: LoopbackServer, user: String, password: String) {
    self.baseURL = server.baseURL
    self.user = user
    self.password = password
    server.route(prefix: Self.path) { [self] request in answer(request) }
  }

  public var addArguments: [String] {
    ["--nextcloud", baseURL.absoluteString, "--user", user]
  }

  public func isMark(_ request: LoopbackServer.Request) -> Bool {
    request.path.hasSuffix("/multiple")
  }

  public func isFeedMark(_ request: LoopbackServer.Request) -> Bool {
    request.path.hasPrefix(Self.path + "feeds/") && request.path.hasSuffix("/read")
  }

  public func answer(_ request: LoopbackServer.Request) -> LoopbackServer.Response {
    guard
      request.headers["authorization"]
        == "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    else { return .json(object: ["message": "Unauthorized"], status: 401) }
    let parts = request.path.dropFirst(Self.path.count).split(separator: "/").map(String.init)
    let body = LoopbackServer.Response.body(request)
    switch (request.method, parts.first ?? "", parts.count) {
    case ("GET", "version", 1):
      return .json(object: ["version": "25.0.0"])
    case ("GET", "folders", 1):
      return .json(object: ["folders": folders()])
    case ("POST", "folders", 1):
      let name = body["name"] as? String ?? ""
      let id = model.addFolder(name)
      return .json(object: ["folders": [["id": id, "name": name]]])
    case ("GET", "feeds", 1):
      return .json(
        object: [
          "feeds": model.feeds.map(feed), "starredCount": model.items.filter(\.starred).count,
          "newestItemId": model.items.map(\.id).max() ?? 0,
        ])
    case ("POST", "feeds", 1):
      guard let url = body["url"] as? String else { return .json(object: [:], status: 422) }
      if URL(string: url)?.host == ReaderModel.unreachableHost {
        return .json(object: ["message": "Could not read the feed \u{1B}[31m"], status: 422)
      }
      let folders = model.folders
      let folder = integer(body["folderId"]).flatMap {
        $0 >= 1 && $0 <= folders.count ? folders[$0 - 1] : nil
      }
      let id = model.subscribe(url, folder: folder)
      return .json(object: ["feeds": model.feeds.filter { $0.id == id }.map(feed)])
    case ("DELETE", "feeds", 2):
      guard let id = Int(parts[1]), model.feeds.contains(where: { $0.id == id }) else {
        return .json(object: ["message": "Feed not found"], status: 404)
      }
      model.unsubscribe(id)
      return .json(object: [:])
    case ("POST", "feeds", 3) where parts[2] == "read":
      guard let id = Int(parts[1]), let newest = integer(body["newestItemId"]) else {
        return .json(object: [:], status: 400)
      }
      model.markFeedRead(id, upTo: newest)
      return .json(object: [:])
    case ("GET", "items", 1):
      return items(request.query)
    case ("GET", "items", 2) where parts[1] == "updated":
      guard let since = request.query["lastModified"].flatMap(Int.init) else {
        return .json(object: [:], status: 400)
      }
      return .json(object: ["items": model.changed(since: since).map(item)])
    case ("POST", "items", 3) where parts[2] == "multiple":
      let ids = integers(body["itemIds"])
      switch parts[1] {
      case "read": model.set(ids, read: true)
      case "unread": model.set(ids, read: false)
      case "star": model.set(ids, starred: true)
      case "unstar": model.set(ids, starred: false)
      default: return model.unknown(request)
      }
      return .json(object: [:])
    default:
      return model.unknown(request)
    }
  }

  private func folders() -> [[String: Any]] {
    model.folders.enumerated().map { ["id": $0.offset + 1, "name": $0.element] }
  }

  private func feed(_ feed: ReaderModel.Feed) -> [String: Any] {
    let folder = feed.folder.flatMap { model.folders.firstIndex(of: $0) }.map { $0 + 1 }
    return [
      "id": feed.id, "url": feed.url, "title": feed.title, "faviconLink": NSNull(),
      "added": 1_645_000_000, "folderId": folder ?? NSNull(),
      "unreadCount": model.items.filter { $0.feed == feed.id && !$0.read }.count, "ordering": 0,
      "link": feed.site, "pinned": false, "updateErrorCount": 0, "lastUpdateError": NSNull(),
    ]
  }

  private func items(_ query: [String: String]) -> LoopbackServer.Response {
    var items = model.items.sorted { $0.id > $1.id }
    if query["getRead"] == "false" { items = items.filter { !$0.read } }
    if query["type"] == "2" { items = items.filter(\.starred) }
    if let offset = query["offset"].flatMap(Int.init), offset > 0 {
      items = items.filter { $0.id < offset }
    }
    let size = query["batchSize"].flatMap(Int.init) ?? -1
    if size > 0 { items = Array(items.prefix(size)) }
    return .json(object: ["items": items.map(item)])
  }

  private func item(_ item: ReaderModel.Item) -> [String: Any] {
    [
      "id": item.id, "guid": item.link, "guidHash": String(item.link.hashValue & 0xffff, radix: 16),
      "url": item.link, "title": item.title, "author": "Ann", "pubDate": item.published,
      "updatedDate": NSNull(), "body": item.content,
      "enclosureMime": item.enclosure?.type ?? NSNull(),
      "enclosureLink": item.enclosure?.url ?? NSNull(), "mediaThumbnail": NSNull(),
      "mediaDescription": NSNull(), "feedId": item.feed, "unread": !item.read,
      "starred": item.starred, "rtl": false, "lastModified": String(item.modified),
      "fingerprint": "f\(item.id)", "contentHash": "c\(item.id)",
    ]
  }
}
