import Foundation

/// Feedbin's API v2 (`/v2/`) over a ``ReaderModel``, as its documentation gives it: HTTP Basic
/// (401 otherwise), `authentication.json`, `subscriptions.json` (GET; POST `feed_url`, 201, or
/// 302 to the one there is; DELETE `subscriptions/{id}.json`), `taggings.json` (GET, POST),
/// `entries.json` with `since`, `per_page`, `page` and `ids` (the next page in a `Link`
/// header), `unread_entries.json` and `starred_entries.json` (GET the ids; POST and DELETE
/// with at most 1,000). A subscription's id is its feed's plus 1,000.
public final class FeedbinServer: AccountServerFake {
  /// The address of the loopback server it answers on (the server holds this fake, not the
  /// other way round: a fake that held its server would keep it from ever stopping).
  public let baseURL: URL
  public let model = ReaderModel()
  public let user: String
  public let password: String
  /// The most entries a page holds, whatever `per_page` asks.
  public let maximumPage: Int
  public let kind = "feedbin"
  public let pathPrefix = "/v2/"
  public let loginPath = "/v2/authentication.json"

  public init(server: LoopbackServer, user: String, password: String, maximumPage: Int = 100) {
    self.baseURL = server.baseURL
    self.user = user
    self.password = password
    self.maximumPage = maximumPage
    server.route(prefix: "/v2/") { [self] request in answer(request) }
  }

  public var addArguments: [String] {
    ["--feedbin", "--url", baseURL.absoluteString + "/v2/", "--user", user]
  }

  public func isMark(_ request: LoopbackServer.Request) -> Bool {
    request.method != "GET"
      && (request.path.hasSuffix("/unread_entries.json")
        || request.path.hasSuffix("/starred_entries.json"))
  }

  public func isFeedMark(_ request: LoopbackServer.Request) -> Bool { false }

  public func answer(_ request: LoopbackServer.Request) -> LoopbackServer.Response {
    guard
      request.headers["authorization"]
        == "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    else { return LoopbackServer.Response(status: 401) }
    let path = String(request.path.dropFirst("/v2/".count))
    let body = LoopbackServer.Response.body(request)
    switch (request.method, path) {
    case ("GET", "authentication.json"):
      return LoopbackServer.Response(status: 200)
    case ("GET", "subscriptions.json"):
      return .json(object: model.feeds.map(subscription))
    case ("POST", "subscriptions.json"):
      guard let url = body["feed_url"] as? String else {
        return LoopbackServer.Response(status: 400)
      }
      switch URL(string: url)?.host {
      case ReaderModel.unreachableHost: return LoopbackServer.Response(status: 404)
      case ReaderModel.severalFeedsHost:
        return .json(
          object: [
            ["feed_url": url + "/posts.xml", "title": "Posts"],
            ["feed_url": url + "/comments.xml", "title": "Comments"],
          ], status: 300)
      default: break
      }
      if let feed = model.feeds.first(where: { $0.url == url }) {
        return .redirect(
          302, to: baseURL.absoluteString + "/v2/subscriptions/\(feed.id + 1_000).json")
      }
      let id = model.subscribe(url, folder: nil)
      return .json(object: subscription(model.feeds.first { $0.id == id }!), status: 201)
    case ("GET", "taggings.json"):
      return .json(
        object: model.feeds.compactMap { feed in
          feed.folder.map {
            ["id": feed.id + 2_000, "feed_id": feed.id, "name": $0] as [String: Any]
          }
        })
    case ("POST", "taggings.json"):
      guard let feed = integer(body["feed_id"]), let name = body["name"] as? String,
        let found = model.feeds.first(where: { $0.id == feed })
      else { return LoopbackServer.Response(status: 400) }
      model.file(found.id, under: name)
      return .json(object: ["id": feed + 2_000, "feed_id": feed, "name": name], status: 201)
    case ("GET", "entries.json"):
      return entries(request.query)
    case ("GET", "unread_entries.json"):
      return .json(object: model.items.filter { !$0.read }.map(\.id))
    case ("GET", "starred_entries.json"):
      return .json(object: model.items.filter(\.starred).map(\.id))
    case ("POST", "unread_entries.json"), ("DELETE", "unread_entries.json"),
      ("POST", "starred_entries.json"), ("DELETE", "starred_entries.json"):
      let field = path.replacingOccurrences(of: ".json", with: "")
      let ids = integers(body[field])
      guard ids.count <= 1_000 else { return LoopbackServer.Response(status: 400) }
      if field == "unread_entries" {
        model.set(ids, read: request.method == "DELETE")
      } else {
        model.set(ids, starred: request.method == "POST")
      }
      return .json(object: ids)
    default:
      if request.method == "GET", path.hasPrefix("subscriptions/") {
        let id = Int(path.dropFirst("subscriptions/".count).prefix { $0.isNumber }) ?? 0
        guard let feed = model.feeds.first(where: { $0.id + 1_000 == id }) else {
          return LoopbackServer.Response(status: 404)
        }
        return .json(object: subscription(feed))
      }
      if request.method == "DELETE", path.hasPrefix("subscriptions/") {
        let id = Int(path.dropFirst("subscriptions/".count).prefix { $0.isNumber }) ?? 0
        guard model.feeds.contains(where: { $0.id + 1_000 == id }) else {
          return LoopbackServer.Response(status: 404)
        }
        model.unsubscribe(id - 1_000)
        return LoopbackServer.Response(status: 204)
      }
      return model.unknown(request)
    }
  }

  private func subscription(_ feed: ReaderModel.Feed) -> [String: Any] {
    [
      "id": feed.id + 1_000, "created_at": "2022-01-01T00:00:00.000000Z", "feed_id": feed.id,
      "title": feed.title, "feed_url": feed.url, "site_url": feed.site,
    ]
  }

  private func entries(_ query: [String: String]) -> LoopbackServer.Response {
    var items = model.items.sorted { $0.id > $1.id }
    if let ids = query["ids"] {
      let wanted = integers(ids)
      return .json(object: items.filter { wanted.contains($0.id) }.map(entry))
    }
    if let since = query["since"], let date = ISO8601DateFormatter.fractional.date(from: since) {
      items = items.filter {
        TimeInterval(MinifluxServer.seconds($0.modified)) > date.timeIntervalSince1970
      }
    }
    let size = min(maximumPage, query["per_page"].flatMap(Int.init) ?? maximumPage)
    let page = query["page"].flatMap(Int.init) ?? 1
    let slice = Array(items.dropFirst((page - 1) * size).prefix(size))
    var headers: [String: String] = [:]
    if page * size < items.count {
      var components = URLComponents(string: baseURL.absoluteString + "/v2/entries.json")!
      components.queryItems =
        query.filter { $0.key != "page" }.sorted { $0.key < $1.key }
        .map { URLQueryItem(name: $0.key, value: $0.value) } + [
          URLQueryItem(name: "page", value: String(page + 1))
        ]
      headers["Link"] =
        "<\(components.url!.absoluteString)>; rel=\"next\", <\(components.url!.absoluteString)>; rel=\"last\""
    }
    return .json(object: slice.map(entry), headers: headers)
  }

  private func entry(_ item: ReaderModel.Item) -> [String: Any] {
    let published = ISO8601DateFormatter.fractional.string(
      from: Date(timeIntervalSince1970: TimeInterval(item.published)))
    var entry: [String: Any] = [
      "id": item.id, "feed_id": item.feed, "title": item.title, "url": item.link,
      "extracted_content_url": "", "author": "Ann", "content": item.content,
      "summary": "", "published": published, "created_at": published,
    ]
    if let enclosure = item.enclosure {
      entry["enclosure"] = [
        "enclosure_url": enclosure.url, "enclosure_type": enclosure.type,
        "enclosure_length": "1234", "itunes_duration": "1:02",
      ]
    }
    return entry
  }
}

extension ISO8601DateFormatter {
  /// `2022-02-17T18:40:00.000Z`.
  static var fractional: ISO8601DateFormatter {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter
  }
}
