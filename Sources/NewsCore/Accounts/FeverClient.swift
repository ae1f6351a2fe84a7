import FeedParsing
import Foundation

/// The Fever API (FreshRSS, Miniflux, Tiny Tiny RSS, Coldsweat): every request is a POST to the
/// endpoint with `?api&<command>` and the `api_key`, the MD5 of `user:password` as the protocol
/// defines it; items come 50 at a time after `since_id`; marks go one item a request (the
/// protocol has no batch).
struct FeverClient: AccountClient {
  let account: Account
  let transport: HTTPTransport
  /// `md5("user:password")`, lower-case hex.
  let apiKey: String

  init(account: Account, password: String, transport: HTTPTransport) {
    self.account = account
    self.transport = transport
    apiKey = MD5.hex(account.user + ":" + password)
  }

  /// What a `mark` command changes: one item, or a whole feed (with `before`).
  enum MarkTarget: String {
    case item, feed
  }

  /// Most pages a sync reads (50 items each): a server that keeps answering stops here.
  static let maximumPages = 2_000

  func login() async throws {
    _ = try await call([])
  }

  func feeds() async throws -> [AccountFeed] {
    let answer = try await call([("feeds", nil), ("groups", nil)])
    guard let feeds = answer["feeds"] as? [[String: Any]] else {
      throw AccountError.wrongShape(account: account.name, detail: "no 'feeds' list")
    }
    var titles: [String: String] = [:]
    for group in answer["groups"] as? [[String: Any]] ?? [] {
      if let id = Self.id(group["id"]), let title = group["title"] as? String { titles[id] = title }
    }
    var folders: [String: [String]] = [:]
    for link in answer["feeds_groups"] as? [[String: Any]] ?? [] {
      guard let group = Self.id(link["group_id"]).flatMap({ titles[$0] }) else { continue }
      for feed in Self.ids(link["feed_ids"]) { folders[feed, default: []].append(group) }
    }
    return feeds.compactMap { feed in
      guard let id = Self.id(feed["id"]) else { return nil }
      let title = (feed["title"] as? String).nonEmpty ?? (feed["url"] as? String) ?? id
      return AccountFeed(
        id: id, title: title, url: feed["url"] as? String, folders: folders[id] ?? [],
        site: feed["site_url"])
    }
  }

  func newItems(after state: AccountState, now: Date) async throws -> (
    items: [AccountItem], state: AccountState
  ) {
    var state = state
    var items: [AccountItem] = []
    var since = state.lastItemID ?? 0
    for _ in 0..<Self.maximumPages {
      let answer = try await call([("items", nil), ("since_id", String(since))])
      guard let page = answer["items"] as? [[String: Any]] else {
        throw AccountError.wrongShape(account: account.name, detail: "no 'items' list")
      }
      let read = page.compactMap(item)
      let highest = read.compactMap { Int64($0.id) }.max() ?? since
      items += read
      // An empty page, or one that does not move on (a server ignoring since_id), ends it.
      guard highest > since else { break }
      since = highest
    }
    state.lastItemID = since
    return (items, state)
  }

  func unreadIDs() async throws -> Set<String> {
    Set(Self.ids(try await call([("unread_item_ids", nil)])["unread_item_ids"]))
  }

  func savedIDs() async throws -> Set<String> {
    Set(Self.ids(try await call([("saved_item_ids", nil)])["saved_item_ids"]))
  }

  /// `items&with_ids=` (at most 50 ids a request, as the protocol says); only the ids asked
  /// for count, so a server ignoring `with_ids` makes none look deleted.
  func existing(_ ids: Set<String>) async throws -> Set<String> {
    var found = Set<String>()
    let sorted = ids.sorted()
    for start in stride(from: 0, to: sorted.count, by: 50) {
      let batch = sorted[start..<min(start + 50, sorted.count)]
      let answer = try await call([("items", nil), ("with_ids", batch.joined(separator: ","))])
      guard let page = answer["items"] as? [[String: Any]] else {
        throw AccountError.wrongShape(account: account.name, detail: "no 'items' list")
      }
      found.formUnion(page.compactMap { Self.id($0["id"]) })
    }
    return found.intersection(ids)
  }

  func send(_ marks: [AccountMark], accepted: @Sendable ([AccountMark]) throws -> Void)
    async throws
  {
    for mark in marks {
      if let before = mark.feedBefore {
        // A whole feed read: one request (the protocol's `mark=feed`, with `before`).
        _ = try await call(
          [],
          form: [
            ("mark", MarkTarget.feed.rawValue), ("as", "read"), ("id", mark.item),
            ("before", String(Int(before))),
          ])
      } else {
        _ = try await call(
          [],
          form: [
            ("mark", MarkTarget.item.rawValue), ("as", mark.change.rawValue), ("id", mark.item),
          ])
      }
      try accepted([mark])
    }
  }

  /// The first read item of the first page of `items`.
  func readItem() async throws -> String? {
    let answer = try await call([("items", nil)])
    let page = answer["items"] as? [[String: Any]] ?? []
    return page.first { Self.flag($0["is_read"]) }.flatMap { Self.id($0["id"]) }
  }

  /// One item of an `items` answer; `nil` without an id.
  private func item(_ object: [String: Any]) -> AccountItem? {
    guard let id = Self.id(object["id"]) else { return nil }
    return AccountItem(
      id: id, feedID: Self.id(object["feed_id"]) ?? "",
      title: (object["title"] as? String) ?? "", url: (object["url"] as? String).nonEmpty,
      author: (object["author"] as? String).nonEmpty, html: (object["html"] as? String).nonEmpty,
      publishedAt: (object["created_on_time"] as? NSNumber).map {
        Date(timeIntervalSince1970: $0.doubleValue)
      },
      isRead: Self.flag(object["is_read"]), isSaved: Self.flag(object["is_saved"]))
  }

  /// POSTs `?api&<commands>` with the key (and `form`); the answer, once `auth` is 1.
  private func call(_ commands: [(String, String?)], form: [(String, String)] = []) async throws
    -> [String: Any]
  {
    guard var components = URLComponents(url: account.url, resolvingAgainstBaseURL: false) else {
      throw AccountError.wrongShape(account: account.name, detail: "not a URL")
    }
    var query = [URLQueryItem(name: "api", value: nil)]
    query += commands.map { URLQueryItem(name: $0.0, value: $0.1) }
    components.queryItems = (components.queryItems ?? []).filter { $0.name != "api" } + query
    guard let url = components.url else {
      throw AccountError.wrongShape(account: account.name, detail: "not a URL")
    }
    let body = FormBody([("api_key", apiKey)] + form.map { (name: $0.0, value: $0.1) })
    let response = try await accountRequest(account.name) {
      try await transport.post(url, form: body)
    }
    guard response.succeeded else {
      if response.status == 401 || response.status == 403 {
        throw AccountError.refused(account: account.name)
      }
      throw AccountError.status(account: account.name, code: response.status)
    }
    let answer = try response.jsonObject(account: account.name)
    guard answer["api_version"] != nil || answer["auth"] != nil else {
      throw AccountError.wrongShape(
        account: account.name, detail: "no 'auth' (is this a Fever API URL?)")
    }
    guard Self.flag(answer["auth"]) else { throw AccountError.refused(account: account.name) }
    return answer
  }

  /// An id sent as a number or a string.
  static func id(_ value: Any?) -> String? {
    switch value {
    case let number as NSNumber: return number.stringValue
    case let text as String where !text.isEmpty: return text
    default: return nil
    }
  }

  /// `"1,2,3"` (or a list) → `["1", "2", "3"]`.
  static func ids(_ value: Any?) -> [String] {
    if let list = value as? [Any] { return list.compactMap(id) }
    guard let text = value as? String else { return id(value).map { [$0] } ?? [] }
    return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
  }

  /// `1`, `true` or `"1"`.
  static func flag(_ value: Any?) -> Bool {
    switch value {
    case let number as NSNumber: return number.intValue != 0
    case let text as String: return text == "1" || text == "true"
    default: return false
    }
  }
}
