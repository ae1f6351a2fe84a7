import FeedParsing
import Foundation
import Synchronization

/// The Google Reader API (FreshRSS, Miniflux, Inoreader, The Old Reader, BazQux): `ClientLogin`
/// for an `Auth` token sent with every request, the `T` token for every change (fetched again
/// when the server says it went bad), `stream/contents` with continuations for items,
/// `stream/items/ids` for the unread and starred ids, `edit-tag` for marks in batches.
struct GoogleReaderClient: AccountClient {
  let account: Account
  let password: String
  let transport: HTTPTransport
  /// The `Auth` token of `ClientLogin`, and the `T` token of `token`, once fetched.
  private let tokens = Tokens()

  /// The tokens of one client, shared by its copies.
  private final class Tokens: Sendable {
    let state = Mutex<(auth: String?, edit: String?)>((nil, nil))
    func withLock<T>(_ body: (inout (auth: String?, edit: String?)) -> T) -> T {
      state.withLock { body(&$0) }
    }
  }

  init(account: Account, password: String, transport: HTTPTransport) {
    self.account = account
    self.password = password
    self.transport = transport
  }

  static let readingList = "user/-/state/com.google/reading-list"
  static let read = "user/-/state/com.google/read"
  static let starred = "user/-/state/com.google/starred"
  /// Items a page of `stream/contents` asks for, and ids a page of `stream/items/ids`.
  static let pageSize = 1_000
  /// Most pages one listing reads: a server whose continuations never end stops here.
  static let maximumPages = 1_000
  /// Ids sent in one `edit-tag`.
  static let batchSize = 250

  func login() async throws {
    let response = try await accountRequest(account.name) {
      try await transport.post(
        endpoint("accounts/ClientLogin"),
        form: FormBody([("Email", account.user), ("Passwd", password)]))
    }
    if response.status == 401 || response.status == 403 {
      throw AccountError.refused(account: account.name)
    }
    guard response.status == 200 else {
      throw AccountError.status(account: account.name, code: response.status)
    }
    let lines = String(decoding: response.body, as: UTF8.self).split(whereSeparator: \.isNewline)
    guard let auth = lines.first(where: { $0.hasPrefix("Auth=") })?.dropFirst(5), !auth.isEmpty
    else {
      throw AccountError.wrongShape(account: account.name, detail: "ClientLogin sent no Auth")
    }
    tokens.withLock { $0 = (String(auth), nil) }
  }

  func feeds() async throws -> [AccountFeed] {
    let answer = try await get("reader/api/0/subscription/list", [("output", "json")])
    guard let list = answer["subscriptions"] as? [[String: Any]] else {
      throw AccountError.wrongShape(account: account.name, detail: "no 'subscriptions' list")
    }
    return list.compactMap { feed in
      guard let id = feed["id"] as? String else { return nil }
      let folders = (feed["categories"] as? [[String: Any]] ?? []).compactMap { category in
        (category["label"] as? String).nonEmpty
          ?? (category["id"] as? String).flatMap { $0.components(separatedBy: "/label/").last }
      }
      let url =
        (feed["url"] as? String).nonEmpty
        ?? (id.hasPrefix("feed/") ? String(id.dropFirst(5)) : nil)
      return AccountFeed(
        id: id, title: feed["title"] as? String, url: url, folders: folders, site: feed["htmlUrl"])
    }
  }

  func newItems(after state: AccountState, now: Date) async throws -> (
    items: [AccountItem], state: AccountState
  ) {
    var state = state
    var parameters = [("output", "json"), ("n", String(Self.pageSize))]
    // Since a little before the last sync began: an item the server was still writing then.
    if let since = state.syncedAt {
      parameters.append(("ot", String(Int(since.timeIntervalSince1970) - 60)))
    }
    var items: [AccountItem] = []
    var continuation: String?
    for _ in 0..<Self.maximumPages {
      let answer = try await get(
        "reader/api/0/stream/contents/" + Self.readingList,
        parameters + (continuation.map { [("c", $0)] } ?? []))
      guard let page = answer["items"] as? [[String: Any]] else {
        throw AccountError.wrongShape(account: account.name, detail: "no 'items' list")
      }
      items += page.compactMap(item)
      continuation = (answer["continuation"] as? String).nonEmpty
      if continuation == nil || page.isEmpty { break }
    }
    state.syncedAt = now
    return (items, state)
  }

  func unreadIDs() async throws -> Set<String> {
    try await ids([("s", Self.readingList), ("xt", Self.read)])
  }

  func savedIDs() async throws -> Set<String> {
    try await ids([("s", Self.starred)])
  }

  /// `stream/items/contents` with the ids, `batchSize` a request: the items it answers with.
  func existing(_ ids: Set<String>) async throws -> Set<String> {
    var found = Set<String>()
    let sorted = ids.sorted()
    for start in stride(from: 0, to: sorted.count, by: Self.batchSize) {
      let batch = sorted[start..<min(start + Self.batchSize, sorted.count)]
      let answer = try await post(
        "reader/api/0/stream/items/contents", batch.map { ("i", Self.longID($0)) })
      let items = answer["items"] as? [[String: Any]] ?? []
      found.formUnion(items.compactMap { ($0["id"] as? String).flatMap(Self.shortID) })
    }
    return found.intersection(ids)
  }

  func send(_ marks: [AccountMark], accepted: @Sendable ([AccountMark]) throws -> Void)
    async throws
  {
    // A whole feed read first: `mark-all-as-read` of its stream, up to `ts` (microseconds).
    for mark in marks where mark.feedBefore != nil {
      let microseconds = String(Int64((mark.feedBefore ?? 0) * 1_000_000))
      try await edit("reader/api/0/mark-all-as-read", [("s", mark.item), ("ts", microseconds)])
      try accepted([mark])
    }
    // One edit-tag per change and batch: `a=` adds the state, `r=` removes it.
    let grouped = Dictionary(grouping: marks.filter { $0.feedBefore == nil }, by: \.change)
    for change in [AccountMark.Change.read, .unread, .saved, .unsaved] {
      let marks = grouped[change] ?? []
      let (verb, tag) =
        switch change {
        case .read: ("a", Self.read)
        case .unread: ("r", Self.read)
        case .saved: ("a", Self.starred)
        case .unsaved: ("r", Self.starred)
        }
      for start in stride(from: 0, to: marks.count, by: Self.batchSize) {
        let batch = Array(marks[start..<min(start + Self.batchSize, marks.count)])
        try await edit(
          "reader/api/0/edit-tag", batch.map { ("i", Self.longID($0.item)) } + [(verb, tag)])
        try accepted(batch)
      }
    }
  }

  /// Subscribes to the feed at `url` on the server, filed under `folder` when given.
  func subscribe(_ url: String, folder: String?) async throws {
    var fields = [("ac", "subscribe"), ("s", "feed/" + url)]
    if let folder { fields.append(("a", "user/-/label/" + folder)) }
    try await edit("reader/api/0/subscription/edit", fields)
  }

  /// Unsubscribes from `feed` (its id is `feed/<url>`).
  func unsubscribe(_ feed: AccountFeed) async throws {
    try await edit("reader/api/0/subscription/edit", [("ac", "unsubscribe"), ("s", feed.id)])
  }

  /// The newest id of the `read` stream.
  func readItem() async throws -> String? {
    let answer = try await get(
      "reader/api/0/stream/items/ids", [("s", Self.read), ("n", "1"), ("output", "json")])
    let references = answer["itemRefs"] as? [[String: Any]] ?? []
    return references.first.flatMap { FeverClient.id($0["id"]) }.flatMap(Self.shortID)
  }

  /// Every id of a stream (`stream/items/ids`), in short form, following continuations.
  private func ids(_ parameters: [(String, String)]) async throws -> Set<String> {
    var found = Set<String>()
    var continuation: String?
    for _ in 0..<Self.maximumPages {
      let answer = try await get(
        "reader/api/0/stream/items/ids",
        parameters + [("output", "json"), ("n", String(Self.pageSize * 10))]
          + (continuation.map { [("c", $0)] } ?? []))
      let references = answer["itemRefs"] as? [[String: Any]] ?? []
      for reference in references {
        if let id = FeverClient.id(reference["id"]).flatMap(Self.shortID) { found.insert(id) }
      }
      continuation = (answer["continuation"] as? String).nonEmpty
      if continuation == nil || references.isEmpty { break }
    }
    return found
  }

  /// One item of `stream/contents`; `nil` without an id.
  private func item(_ object: [String: Any]) -> AccountItem? {
    guard let id = (object["id"] as? String).flatMap(Self.shortID) else { return nil }
    let categories = Set(object["categories"] as? [String] ?? [])
    let link =
      ((object["canonical"] as? [[String: Any]])?.first?["href"] as? String).nonEmpty
      ?? ((object["alternate"] as? [[String: Any]])?.first?["href"] as? String).nonEmpty
    let html =
      ((object["content"] as? [String: Any])?["content"] as? String).nonEmpty
      ?? ((object["summary"] as? [String: Any])?["content"] as? String).nonEmpty
    return AccountItem(
      id: id, feedID: ((object["origin"] as? [String: Any])?["streamId"] as? String) ?? "",
      title: (object["title"] as? String) ?? "", url: link,
      author: (object["author"] as? String).nonEmpty, html: html,
      publishedAt: (object["published"] as? NSNumber).map {
        Date(timeIntervalSince1970: $0.doubleValue)
      },
      isRead: categories.contains { $0.hasSuffix("/state/com.google/read") },
      isSaved: categories.contains { $0.hasSuffix("/state/com.google/starred") },
      enclosures: (object["enclosure"] as? [[String: Any]] ?? []).compactMap(Self.enclosure))
  }

  /// One of an item's files (FreshRSS's `enclosure`: `href`, `type`, `length`).
  static func enclosure(_ object: [String: Any]) -> Enclosure? {
    guard let url = (object["href"] as? String).nonEmpty else { return nil }
    let length = FeverClient.id(object["length"]).flatMap { Int($0) }
    return Enclosure(
      url: url, type: (object["type"] as? String).nonEmpty?.lowercased(),
      length: length.flatMap { $0 > 0 ? $0 : nil })
  }

  /// `tag:google.com,2005:reader/item/000000000000001f` → `31`; a short id stays as it is.
  static func shortID(_ id: String) -> String? {
    if let hex = id.split(separator: "/").last, id.hasPrefix("tag:google.com") {
      return UInt64(hex, radix: 16).map(String.init)
    }
    return UInt64(id) != nil ? id : (id.isEmpty ? nil : id)
  }

  /// `31` → `tag:google.com,2005:reader/item/000000000000001f`.
  static func longID(_ id: String) -> String {
    guard let number = UInt64(id) else { return id }
    let hex = String(number, radix: 16)
    return "tag:google.com,2005:reader/item/" + String(repeating: "0", count: 16 - hex.count)
      + hex
  }

  private func endpoint(_ path: String, _ parameters: [(String, String)] = []) -> URL {
    var url = account.url
    for part in path.split(separator: "/") { url.appendPathComponent(String(part)) }
    guard !parameters.isEmpty,
      var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    else { return url }
    // `+` and `/` in values would be read as a space and a path by some servers.
    components.percentEncodedQuery = parameters.map {
      FormBody.escape($0.0) + "=" + FormBody.escape($0.1)
    }.joined(separator: "&")
    return components.url ?? url
  }

  /// The `Auth` token, logging in first when there is none yet.
  private func auth() async throws -> String {
    if let auth = tokens.withLock({ $0.auth }) { return auth }
    try await login()
    return tokens.withLock { $0.auth } ?? ""
  }

  private func get(_ path: String, _ parameters: [(String, String)]) async throws -> [String: Any] {
    let url = endpoint(path, parameters)
    let auth = try await auth()
    let response = try await accountRequest(account.name) {
      try await transport.get(url, headers: ["Authorization": "GoogleLogin auth=" + auth])
    }
    try check(response)
    return try response.jsonObject(account: account.name)
  }

  /// A POST that reads (`stream/items/contents`): the answer's JSON object.
  private func post(_ path: String, _ fields: [(String, String)]) async throws -> [String: Any] {
    let auth = try await auth()
    let body = FormBody(fields.map { (name: $0.0, value: $0.1) })
    let response = try await accountRequest(account.name) {
      try await transport.post(
        endpoint(path, [("output", "json")]), form: body,
        headers: ["Authorization": "GoogleLogin auth=" + auth])
    }
    try check(response)
    return try response.jsonObject(account: account.name)
  }

  /// A change (`edit-tag`, `subscription/edit`) with the `T` token: fetched once, and again when
  /// the server answers that it went bad.
  private func edit(_ path: String, _ fields: [(String, String)]) async throws {
    let auth = try await auth()
    for attempt in 0..<2 {
      let token = try await editToken(auth: auth, fresh: attempt > 0)
      let body = FormBody((fields + [("T", token)]).map { (name: $0.0, value: $0.1) })
      let response = try await accountRequest(account.name) {
        try await transport.post(
          endpoint(path), form: body, headers: ["Authorization": "GoogleLogin auth=" + auth])
      }
      // FreshRSS says `Google-Bad-Token`, Miniflux `X-Reader-Google-Bad-Token`.
      if response.status == 401,
        response.headers["x-reader-google-bad-token"] == "true"
          || response.headers["google-bad-token"] == "true"
      {
        // Stale once: fetched again. Refused again with a token just fetched: the server's
        // fault, not the password's.
        if attempt == 0 { continue }
        throw AccountError.badToken(account: account.name)
      }
      try check(response)
      return
    }
  }

  private func editToken(auth: String, fresh: Bool) async throws -> String {
    if !fresh, let token = tokens.withLock({ $0.edit }) { return token }
    let response = try await accountRequest(account.name) {
      try await transport.get(
        endpoint("reader/api/0/token"), headers: ["Authorization": "GoogleLogin auth=" + auth])
    }
    try check(response)
    let token = String(decoding: response.body, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    guard !token.isEmpty else {
      throw AccountError.wrongShape(account: account.name, detail: "an empty edit token")
    }
    tokens.withLock { $0.edit = token }
    return token
  }

  private func check(_ response: HTTPResponse) throws {
    guard response.succeeded else {
      if response.status == 401 || response.status == 403 {
        throw AccountError.refused(account: account.name)
      }
      throw AccountError.status(account: account.name, code: response.status)
    }
  }
}
