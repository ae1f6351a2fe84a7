import Foundation
import NewsCore
import Serving

/// The Google Reader API under `/reader/api/0/`, as FreshRSS and Miniflux serve it: what the
/// apps read (tags, subscriptions, unread counts, streams of ids and of items) and what they
/// change (marks, a feed read to a time, subscriptions, labels). A change needs the `T` token;
/// a missing or stale one is 401 with `Google-Bad-Token` and `X-Reader-Google-Bad-Token`.
enum GoogleReaderAPI {
  static let prefix = "/reader/api/0/"

  /// The answer to the endpoint `endpoint` (the path after ``prefix``).
  static func answer(_ endpoint: String, _ served: ServedRequest, login: ServerLogin?) throws
    -> HTTPResponse
  {
    switch endpoint {
    case "token":
      return .text(editToken(login) + "\n")
    case "user-info":
      return .json(userInfo(login))
    case "tag/list":
      return .json(
        try served.cache.memo("tag/list", for: served.generation) { try tagList(served) })
    case "subscription/list":
      return .json(subscriptionList(served))
    case "unread-count":
      return .json(
        try served.cache.memo("unread-count", for: served.generation) { try unreadCount(served) })
    case "stream/items/ids":
      return .json(try itemIDs(served))
    case "stream/items/contents":
      return try itemContents(served)
    case "stream/contents":
      return .json(try streamContents(.readingList, served))
    case _ where endpoint.hasPrefix("stream/contents/"):
      let stream = try ReaderStream(String(endpoint.dropFirst("stream/contents/".count)))
      return .json(try streamContents(stream, served))
    case "edit-tag", "mark-all-as-read", "subscription/edit", "subscription/quickadd",
      "rename-tag", "disable-tag":
      guard served.request.method == "POST" else {
        return HTTPResponse.text("a change is a POST\n", status: 405)
      }
      guard let token = served.request.parameter("T"),
        login == nil
          || login?.accepts(token: token, for: "edit") == true
      else {
        return HTTPResponse(
          status: 401, body: Array("Unauthorized\n".utf8),
          headers: [("Google-Bad-Token", "true"), ("X-Reader-Google-Bad-Token", "true")])
      }
      return try ReaderEdits.answer(endpoint, served)
    default:
      return HTTPResponse.text("not served: see docs/serve.md\n", status: 404)
    }
  }

  /// The `T` token for changes.
  static func editToken(_ login: ServerLogin?) -> String {
    login?.token("edit") ?? "news-open-token"
  }

  static func userInfo(_ login: ServerLogin?) -> JSONValue {
    let user = login?.user ?? "news"
    return .object([
      ("userId", .string("1")), ("userName", .string(user)), ("userProfileId", .string("1")),
      ("userEmail", .string("")),
    ])
  }

  /// The states and every label (tags and saved searches) with its unread count.
  static func tagList(_ served: ServedRequest) throws -> JSONValue {
    var tags: [JSONValue] = [
      .object([("id", .string(ReaderStream.starred.id))]),
      .object([("id", .string(ReaderStream.read.id))]),
    ]
    let counts = try labelCounts(served)
    for label in served.library.labels {
      tags.append(
        .object([
          ("id", .string(ReaderStream.label(label).id)), ("type", .string("folder")),
          ("unread_count", .int(counts[label] ?? 0)),
        ]))
    }
    return .object([("tags", .array(tags))])
  }

  static func subscriptionList(_ served: ServedRequest) -> JSONValue {
    .object([
      (
        "subscriptions",
        .array(
          served.library.feeds.map { feed in
            .object([
              ("id", .string(feed.streamID)), ("title", .string(feed.title)),
              (
                "categories",
                .array(
                  feed.labels.map {
                    .object([("id", .string(ReaderStream.label($0).id)), ("label", .string($0))])
                  })
              ),
              ("url", .string(feed.url)), ("htmlUrl", .string(feed.page)),
              ("iconUrl", .string("")), ("sortid", .string(String(feed.number, radix: 16))),
            ])
          })
      )
    ])
  }

  /// Unread items by feed, and by label.
  static func unreadCount(_ served: ServedRequest) throws -> JSONValue {
    var byFeed: [String: (count: Int, newest: Int64)] = [:]
    var total = 0
    for item in served.library.items where !served.marks.isRead(item) {
      total += 1
      let kept = byFeed[item.feed] ?? (0, 0)
      byFeed[item.feed] = (kept.count + 1, max(kept.newest, item.microseconds))
    }
    var counts: [JSONValue] = []
    func entry(_ id: String, _ count: Int, _ newest: Int64) -> JSONValue {
      .object([
        ("id", .string(id)), ("count", .int(count)),
        ("newestItemTimestampUsec", .string(String(newest))),
      ])
    }
    for feed in served.library.feeds {
      let (count, newest) = byFeed[feed.name] ?? (0, 0)
      counts.append(entry(feed.streamID, count, newest))
    }
    for (label, count) in try labelCounts(served).sorted(by: { $0.key < $1.key }) {
      counts.append(entry(ReaderStream.label(label).id, count, 0))
    }
    let newest = served.library.items.first?.microseconds ?? 0
    counts.append(entry(ReaderStream.readingList.id, total, newest))
    return .object([("max", .int(max(total, 1_000))), ("unreadcounts", .array(counts))])
  }

  /// Each label's unread items.
  private static func labelCounts(_ served: ServedRequest) throws -> [String: Int] {
    var counts: [String: Int] = [:]
    for label in served.library.labels {
      let holds = try ReaderStream.label(label).holds(in: served)
      counts[label] = served.library.items.count { !served.marks.isRead($0) && holds($0) }
    }
    return counts
  }

  /// `stream/items/ids`: up to 10,000 ids a page, decimal, with their times.
  static func itemIDs(_ served: ServedRequest) throws -> JSONValue {
    guard let stream = served.parameter("s") else {
      throw HTTPError.badRequest("'s' (the stream) is missing")
    }
    let page = try StreamPage(
      try ReaderStream(stream), served, defaultCount: 20, limit: 10_000)
    var members: [(String, JSONValue)] = [
      (
        "itemRefs",
        .array(
          page.items.map { item in
            .object([
              ("id", .string(String(item.number))), ("directStreamIds", .array([])),
              ("timestampUsec", .string(String(item.microseconds))),
            ])
          })
      )
    ]
    if let continuation = page.continuation {
      members.append(("continuation", .string(continuation)))
    }
    return .object(members)
  }

  /// `stream/items/contents`: the items named by the repeated `i` (either form).
  static func itemContents(_ served: ServedRequest) throws -> HTTPResponse {
    let ids = served.request.parameters("i")
    guard ids.count <= 10_000 else { throw HTTPError.badRequest("more than 10,000 ids") }
    let (items, missing) = try served.items(ids)
    let body: JSONValue = .object([
      ("id", .string(ReaderStream.readingList.id)), ("updated", .int(served.now)),
      ("items", .array(try json(items, served))),
    ])
    return HTTPResponse.json(body).noting(missing: missing)
  }

  /// `stream/contents/<stream>`: up to 1,000 items a page.
  static func streamContents(_ stream: ReaderStream, _ served: ServedRequest) throws -> JSONValue {
    let page = try StreamPage(stream, served, defaultCount: 20, limit: 1_000)
    var members: [(String, JSONValue)] = [
      ("id", .string(stream.id)), ("updated", .int(served.now)),
      ("items", .array(try json(page.items, served))),
    ]
    if let continuation = page.continuation {
      members.append(("continuation", .string(continuation)))
    }
    return .object(members)
  }

  /// `items` as the API writes them, each with its files (read for the page at once).
  private static func json(_ items: [ServedItem], _ served: ServedRequest) throws -> [JSONValue] {
    let files = served.enclosures(of: items)
    return try served.articles(of: items).map {
      ReaderItem.json($0, $1, served, enclosures: files[$0.id] ?? [])
    }
  }
}
