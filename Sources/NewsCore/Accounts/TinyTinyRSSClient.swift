import FeedParsing
import Foundation
import Synchronization

/// Tiny Tiny RSS's API (`/api/`, every call a POST of a JSON body with its `op`): `login` for a
/// session id sent with every call (logged in again, once, when the server says
/// `NOT_LOGGED_IN`), answers in a `{seq, status, content}` envelope, items past the highest id
/// received (`getHeadlines` of `feed_id: -4` with `since_id`, 200 a page, `skip`), the unread and
/// starred ids listed the same way without content, marks as `updateArticle` with comma-separated
/// ids.
struct TinyTinyRSSClient: AccountClient {
  let account: Account
  let password: String
  let api: AccountAPI
  /// The session id, once logged in; shared by the client's copies.
  private let session = Session()

  private final class Session: Sendable {
    let id = Mutex<String?>(nil)
  }

  init(account: Account, password: String, transport: HTTPTransport) {
    self.account = account
    self.password = password
    api = AccountAPI(account: account, transport: transport, headers: [:], base: "api")
  }

  /// The most headlines the API gives a page.
  static let pageSize = 200
  /// Most pages one listing reads.
  static let maximumPages = 5_000
  /// Ids an `updateArticle` carries.
  static let batchSize = 500
  /// `getHeadlines`' virtual feeds: every article, the starred ones.
  static let allArticles = -4
  static let starred = -1

  func login() async throws {
    let content = try await call(
      "login", ["user": account.user, "password": password], loggingIn: true)
    guard let id = ((content as? [String: Any])?["session_id"] as? String).nonEmpty else {
      throw api.wrongShape("login gave no session_id")
    }
    session.id.withLock { $0 = id }
  }

  func feeds() async throws -> [AccountFeed] {
    var titles: [String: String] = [:]
    for category in try await list("getCategories", ["include_empty": true]) {
      if let id = FeverClient.id(category["id"]), let title = category["title"] as? String {
        titles[id] = title
      }
    }
    let feeds = try await list("getFeeds", ["cat_id": -3, "include_nested": true])
    return feeds.compactMap { feed in
      guard let id = FeverClient.id(feed["id"]), (Int64(id) ?? 0) > 0 else { return nil }
      let url = (feed["feed_url"] as? String).nonEmpty
      // Category 0 is "Uncategorized": no folder.
      let folder = FeverClient.id(feed["cat_id"]).flatMap { $0 == "0" ? nil : titles[$0] }
      return AccountFeed(
        id: id, title: feed["title"] as? String, url: url, folders: folder.map { [$0] } ?? [])
    }
  }

  func newItems(after state: AccountState, now: Date) async throws -> (
    items: [AccountItem], state: AccountState
  ) {
    var state = state
    let since = state.lastItemID ?? 0
    let items = try await headlines(
      feed: Self.allArticles, mode: "all_articles", content: true, since: since)
    state.lastItemID = max(since, items.compactMap { Int64($0.id) }.max() ?? since)
    state.syncedAt = now
    return (items, state)
  }

  func unreadIDs() async throws -> Set<String> {
    Set(try await headlines(feed: Self.allArticles, mode: "unread", content: false).map(\.id))
  }

  func savedIDs() async throws -> Set<String> {
    Set(try await headlines(feed: Self.starred, mode: "all_articles", content: false).map(\.id))
  }

  /// `getArticle` with the ids, 200 a request: those it answers with.
  func existing(_ ids: Set<String>) async throws -> Set<String> {
    var found = Set<String>()
    for batch in AccountAPI.batches(ids.sorted(), of: Self.pageSize) {
      let articles = try await list("getArticle", ["article_id": batch.joined(separator: ",")])
      found.formUnion(articles.compactMap { FeverClient.id($0["id"]) })
    }
    return found.intersection(ids)
  }

  func send(_ marks: [AccountMark], accepted: @Sendable ([AccountMark]) throws -> Void)
    async throws
  {
    for mark in marks where mark.feedBefore != nil {
      _ = try await call(
        "catchupFeed", ["feed_id": Int64(mark.item) ?? 0, "is_cat": false, "mode": "all"])
      try accepted([mark])
    }
    let grouped = Dictionary(grouping: marks.filter { $0.feedBefore == nil }, by: \.change)
    // `field` 2 is unread, 0 starred; `mode` 1 sets it, 0 clears it.
    let updates: [(AccountMark.Change, field: Int, mode: Int)] = [
      (.read, 2, 0), (.unread, 2, 1), (.saved, 0, 1), (.unsaved, 0, 0),
    ]
    for (change, field, mode) in updates {
      for batch in AccountAPI.batches(grouped[change] ?? [], of: Self.batchSize) {
        _ = try await call(
          "updateArticle",
          [
            "article_ids": batch.map(\.item).joined(separator: ","), "field": field,
            "mode": mode,
          ])
        try accepted(batch)
      }
    }
  }

  func subscribe(_ url: String, folder: String?) async throws {
    var category = "0"
    if let folder {
      let categories = try await list("getCategories", ["include_empty": true])
      guard
        let found = categories.first(where: {
          ($0["title"] as? String)?.caseInsensitiveCompare(folder) == .orderedSame
        }).flatMap({ FeverClient.id($0["id"]) })
      else {
        throw AccountError.unsupported(
          account: account.name,
          detail: "Tiny Tiny RSS has no category '\(folder)' and its API cannot make one: "
            + "make it in its preferences first")
      }
      category = found
    }
    let content = try await call(
      "subscribeToFeed", ["feed_url": url, "category_id": Int64(category) ?? 0])
    let code = ((content as? [String: Any])?["status"] as? [String: Any])?["code"] as? NSNumber
    // 0: subscribed already, 1: subscribed; anything else is the feed's fault.
    guard let code, code.intValue <= 1 else {
      let number = code?.intValue ?? -1
      throw AccountError.notSubscribed(
        account: account.name, url: url,
        reason: "Tiny Tiny RSS " + Self.subscribeFailure(number) + " (its code \(number))",
        unreachable: number == 5 || number == 7)
    }
  }

  /// What `subscribeToFeed`'s status code says went wrong (its API's documentation).
  static func subscribeFailure(_ code: Int) -> String {
    switch code {
    case 2: "found the URL invalid"
    case 3: "found a web page there, announcing no feed"
    case 4: "found a web page there announcing several feeds: subscribe to one of them"
    case 5: "could not download it"
    case 6: "found no valid feed there (its XML is not one)"
    case 7: "could not store the feed"
    default: "could not subscribe"
    }
  }

  func unsubscribe(_ feed: AccountFeed) async throws {
    _ = try await call("unsubscribeFeed", ["feed_id": Int64(feed.id) ?? 0])
  }

  func readItem() async throws -> String? {
    let page = try await list(
      "getHeadlines",
      [
        "feed_id": Self.allArticles, "view_mode": "all_articles", "limit": 50,
        "show_content": false,
      ])
    return page.first { !FeverClient.flag($0["unread"]) }.flatMap { FeverClient.id($0["id"]) }
  }

  /// Every headline of `feed` in `mode` past `since`, a page at a time (`skip`).
  private func headlines(feed: Int, mode: String, content: Bool, since: Int64 = 0) async throws
    -> [AccountItem]
  {
    var items: [AccountItem] = []
    var skip = 0
    for _ in 0..<Self.maximumPages {
      var parameters: [String: Any] = [
        "feed_id": feed, "view_mode": mode, "limit": Self.pageSize, "skip": skip,
        "show_content": content, "order_by": "date_reverse",
      ]
      // Its enclosures (a podcast's episodes) come only when asked for.
      if content { parameters["include_attachments"] = true }
      if since > 0 { parameters["since_id"] = since }
      let page = try await list("getHeadlines", parameters)
      items += page.compactMap(item)
      skip += page.count
      if page.count < Self.pageSize { break }
    }
    return items
  }

  /// One headline as an item; `nil` without an id.
  private func item(_ object: [String: Any]) -> AccountItem? {
    guard let id = FeverClient.id(object["id"]) else { return nil }
    let enclosures = (object["attachments"] as? [[String: Any]] ?? []).compactMap {
      attachment -> Enclosure? in
      guard let url = (attachment["content_url"] as? String).nonEmpty else { return nil }
      let duration = FeverClient.id(attachment["duration"]).flatMap(Enclosure.seconds)
      return Enclosure(
        url: url, type: (attachment["content_type"] as? String).nonEmpty?.lowercased(),
        duration: duration.flatMap { $0 > 0 ? $0 : nil })
    }
    return AccountItem(
      id: id, feedID: FeverClient.id(object["feed_id"]) ?? "",
      title: (object["title"] as? String) ?? "", url: (object["link"] as? String).nonEmpty,
      author: (object["author"] as? String).nonEmpty,
      html: (object["content"] as? String).nonEmpty,
      publishedAt: (object["updated"] as? NSNumber).map {
        Date(timeIntervalSince1970: $0.doubleValue)
      },
      isRead: !FeverClient.flag(object["unread"]), isSaved: FeverClient.flag(object["marked"]),
      enclosures: enclosures)
  }

  /// `call`'s content as a list of objects.
  private func list(_ operation: String, _ parameters: [String: Any]) async throws
    -> [[String: Any]]
  {
    guard let list = try await call(operation, parameters) as? [[String: Any]] else {
      throw api.wrongShape("\(operation) did not answer a list")
    }
    return list
  }

  /// Calls `operation` with the session id (logging in first, and once more when the server
  /// says the session ended); the envelope's `content`.
  private func call(_ operation: String, _ parameters: [String: Any], loggingIn: Bool = false)
    async throws -> Any
  {
    for attempt in 0..<2 {
      var body = parameters
      body["op"] = operation
      if !loggingIn {
        if session.id.withLock({ $0 }) == nil { try await login() }
        body["sid"] = session.id.withLock { $0 }
      }
      let answer = try await api.object("", method: "POST", body: body)
      let content = answer["content"]
      guard FeverClient.id(answer["status"]) != "0" else { return content ?? NSNull() }
      let error = ((content as? [String: Any])?["error"] as? String) ?? "an error"
      switch error {
      case "NOT_LOGGED_IN" where !loggingIn && attempt == 0:
        session.id.withLock { $0 = nil }
        continue
      case "LOGIN_ERROR", "NOT_LOGGED_IN":
        throw AccountError.refused(account: account.name)
      case "API_DISABLED":
        throw AccountError.unsupported(
          account: account.name,
          detail: "the server's API is turned off: turn on 'Enable API' in Tiny Tiny RSS's "
            + "Preferences → General, for this user")
      default:
        throw api.wrongShape(
          "\(operation) answered \(TerminalSanitizer.clean(String(error.prefix(80))))")
      }
    }
    throw AccountError.refused(account: account.name)
  }
}
