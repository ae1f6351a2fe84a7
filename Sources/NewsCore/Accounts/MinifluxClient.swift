import FeedParsing
import Foundation

/// Miniflux's own API (`/v1/`), with an API key (`X-Auth-Token`) or a user and password (HTTP
/// Basic): items after the highest id received (`after_entry_id`, in id order, `limit`
/// a page) and those whose state changed since the last sync (`changed_after`), so that unread
/// ids are the last sync's moved by what changed; saved ids are listed (`starred`), as a
/// bookmark's toggle need not move `changed_at`. Read marks go 500 ids a request
/// (`PUT /v1/entries`); a star is a toggle there, so its state is read first.
struct MinifluxClient: AccountClient {
  let account: Account
  let api: AccountAPI

  init(account: Account, password: String, transport: HTTPTransport) {
    self.account = account
    let credential =
      account.user.isEmpty
      ? ["X-Auth-Token": password]
      : ["Authorization": AccountAPI.basic(account.user, password)]
    api = AccountAPI(account: account, transport: transport, headers: credential)
  }

  /// Entries a page asks for.
  static let pageSize = 250
  /// Most pages one listing reads.
  static let maximumPages = 4_000
  /// Ids a `PUT /v1/entries` carries.
  static let batchSize = 500

  func login() async throws {
    _ = try await api.object("v1/me")
  }

  func feeds() async throws -> [AccountFeed] {
    guard let feeds = try await api.json("v1/feeds") as? [[String: Any]] else {
      throw api.wrongShape("v1/feeds is not a list of feeds")
    }
    return feeds.compactMap { feed in
      guard let id = FeverClient.id(feed["id"]) else { return nil }
      let url = (feed["feed_url"] as? String).nonEmpty
      let folder = ((feed["category"] as? [String: Any])?["title"] as? String).nonEmpty
      return AccountFeed(
        id: id, title: feed["title"] as? String, url: url, folders: folder.map { [$0] } ?? [],
        site: feed["site_url"])
    }
  }

  func newItems(after state: AccountState, now: Date) async throws -> (
    items: [AccountItem], state: AccountState
  ) {
    var state = state
    var items: [AccountItem] = []
    var last = state.lastItemID ?? 0
    // What came since the last sync, in id order from the highest id received.
    for _ in 0..<Self.maximumPages {
      let (page, _, count) = try await entries([
        ("after_entry_id", String(last)), ("order", "id"), ("direction", "asc"),
        ("limit", String(Self.pageSize)),
      ])
      items += page
      // Until a page is empty: a server may hold fewer a page than `limit` asks.
      let highest = page.compactMap { Int64($0.id) }.max() ?? last
      guard highest > last, count > 0 else { break }
      last = highest
    }
    // What changed since (read or unread elsewhere), a minute of overlap for a write in flight.
    if let since = state.syncedAt {
      let changed = try await all([
        ("changed_after", String(Int(since.timeIntervalSince1970) - 60)), ("order", "id"),
        ("direction", "asc"),
      ])
      let received = Set(items.map(\.id))
      items += changed.filter { !received.contains($0.id) }
    }
    state.lastItemID = last
    state.syncedAt = now
    return (items, state)
  }

  func states(known: AccountItems, items: [AccountItem]) async throws -> (
    unread: Set<String>, saved: Set<String>
  ) {
    (movedUnread(known, by: items), try await savedIDs())
  }

  func unreadIDs() async throws -> Set<String> {
    Set(try await all([("status", "unread")]).map(\.id))
  }

  func savedIDs() async throws -> Set<String> {
    Set(try await all([("starred", "true")]).map(\.id))
  }

  /// Each id asked for (`GET /v1/entries/{id}`): those answered, and not `removed`.
  func existing(_ ids: Set<String>) async throws -> Set<String> {
    var found = Set<String>()
    for id in ids.sorted() where try await entry(id) != nil { found.insert(id) }
    return found
  }

  func send(_ marks: [AccountMark], accepted: @Sendable ([AccountMark]) throws -> Void)
    async throws
  {
    for mark in marks where mark.feedBefore != nil {
      try await api.send("PUT", "v1/feeds/\(mark.item)/mark-all-as-read")
      try accepted([mark])
    }
    let grouped = Dictionary(grouping: marks.filter { $0.feedBefore == nil }, by: \.change)
    for change in [AccountMark.Change.read, .unread] {
      for batch in AccountAPI.batches(grouped[change] ?? [], of: Self.batchSize) {
        try await api.send(
          "PUT", "v1/entries",
          body: [
            "entry_ids": batch.compactMap { Int64($0.item) }, "status": change.rawValue,
          ] as [String: Any])
        try accepted(batch)
      }
    }
    for mark in (grouped[.saved] ?? []) + (grouped[.unsaved] ?? []) {
      // A toggle: sent only when the entry is not yet as asked (a gone entry has nothing to mark).
      if let entry = try await entry(mark.item), entry.isSaved != (mark.change == .saved) {
        try await api.send("PUT", "v1/entries/\(mark.item)/bookmark")
      }
      try accepted([mark])
    }
  }

  func subscribe(_ url: String, folder: String?) async throws {
    guard let categories = try await api.json("v1/categories") as? [[String: Any]] else {
      throw api.wrongShape("v1/categories is not a list of categories")
    }
    let wanted = folder ?? ""
    var category = categories.first {
      ($0["title"] as? String)?.caseInsensitiveCompare(wanted) == .orderedSame
    }
    if category == nil, folder != nil {
      category = try await api.object("v1/categories", method: "POST", body: ["title": wanted])
    }
    guard let id = FeverClient.id((category ?? categories.first)?["id"]).flatMap(Int64.init)
    else { throw api.wrongShape("no category to file the feed under") }
    try await api.send("POST", "v1/feeds", body: ["feed_url": url, "category_id": id])
  }

  func unsubscribe(_ feed: AccountFeed) async throws {
    try await api.send("DELETE", "v1/feeds/\(feed.id)")
  }

  func readItem() async throws -> String? {
    try await entries([("status", "read"), ("limit", "1")]).entries.first?.id
  }

  /// One entry, `nil` when the server has it no more (404, or `removed`).
  private func entry(_ id: String) async throws -> AccountItem? {
    do {
      return item(try await api.object("v1/entries/\(id)"))
    } catch AccountError.status(_, 404, _) {
      return nil
    }
  }

  /// Every entry of a listing, page after page (`offset`) until `total`.
  private func all(_ query: [(String, String)]) async throws -> [AccountItem] {
    var found: [AccountItem] = []
    var offset = 0
    for _ in 0..<Self.maximumPages {
      let (page, total, count) = try await entries(
        query + [("limit", String(Self.pageSize)), ("offset", String(offset))])
      found += page
      offset += count
      if count == 0 || offset >= total { break }
    }
    return found
  }

  /// One page of `GET /v1/entries`: its items (removed ones left out), `total`, and how many
  /// entries it held.
  private func entries(_ query: [(String, String)]) async throws -> (
    entries: [AccountItem], total: Int, count: Int
  ) {
    let answer = try await api.object("v1/entries", query: query)
    guard let entries = answer["entries"] as? [[String: Any]] else {
      throw api.wrongShape("no 'entries' list")
    }
    let total = (answer["total"] as? NSNumber)?.intValue ?? entries.count
    return (entries.compactMap(item), total, entries.count)
  }

  /// One entry as an item; `nil` without an id, or `removed`.
  private func item(_ object: [String: Any]) -> AccountItem? {
    guard let id = FeverClient.id(object["id"]), object["status"] as? String != "removed" else {
      return nil
    }
    let enclosures = (object["enclosures"] as? [[String: Any]] ?? []).compactMap {
      enclosure -> Enclosure? in
      guard let url = (enclosure["url"] as? String).nonEmpty else { return nil }
      let size = (enclosure["size"] as? NSNumber)?.intValue
      return Enclosure(
        url: url, type: (enclosure["mime_type"] as? String).nonEmpty?.lowercased(),
        length: size.flatMap { $0 > 0 ? $0 : nil })
    }
    return AccountItem(
      id: id, feedID: FeverClient.id(object["feed_id"]) ?? "",
      title: (object["title"] as? String) ?? "", url: (object["url"] as? String).nonEmpty,
      author: (object["author"] as? String).nonEmpty,
      html: (object["content"] as? String).nonEmpty,
      publishedAt: AccountAPI.date(object["published_at"]),
      isRead: object["status"] as? String == "read", isSaved: FeverClient.flag(object["starred"]),
      enclosures: enclosures)
  }
}
