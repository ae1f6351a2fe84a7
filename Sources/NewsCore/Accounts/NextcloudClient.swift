import FeedParsing
import Foundation

/// Nextcloud News's API v1.3 (`/index.php/apps/news/api/v1-3/`, HTTP Basic with the user and an
/// app password): the first sync reads every item (`items?type=3&getRead=true`, a batch at a
/// time, `offset` the lowest id of the last batch), later ones what changed since the highest
/// `lastModified` received (`items/updated`: new items and those read or starred elsewhere).
/// The API lists no ids, so the unread and saved ids are the last sync's moved by what changed.
/// Marks go by item id (`items/read/multiple`, `items/star/multiple`, …).
struct NextcloudClient: AccountClient {
  let account: Account
  let api: AccountAPI

  init(account: Account, password: String, transport: HTTPTransport) {
    self.account = account
    api = AccountAPI(
      account: account, transport: transport,
      headers: ["Authorization": AccountAPI.basic(account.user, password)],
      base: "index.php/apps/news/api/v1-3")
  }

  /// Items a batch asks for.
  static let batchSize = 200
  /// Most batches one listing reads.
  static let maximumPages = 5_000
  /// Ids a mark request carries.
  static let markBatch = 500

  func login() async throws {
    _ = try await api.object("version")
  }

  func feeds() async throws -> [AccountFeed] {
    let folders = try await folders()
    let answer = try await api.object("feeds")
    guard let feeds = answer["feeds"] as? [[String: Any]] else {
      throw api.wrongShape("no 'feeds' list")
    }
    return feeds.compactMap { feed in
      guard let id = FeverClient.id(feed["id"]) else { return nil }
      let url = (feed["url"] as? String).nonEmpty
      let folder = FeverClient.id(feed["folderId"]).flatMap { folders[$0] }
      return AccountFeed(
        id: id, title: feed["title"] as? String, url: url, folders: folder.map { [$0] } ?? [],
        site: feed["link"])
    }
  }

  func newItems(after state: AccountState, now: Date) async throws -> (
    items: [AccountItem], state: AccountState
  ) {
    var state = state
    var items: [AccountItem] = []
    if let since = state.lastModified {
      let answer = try await api.object(
        "items/updated", query: [("lastModified", String(since)), ("type", "3"), ("id", "0")])
      items = try page(answer).items
      state.lastModified = max(since, try page(answer).lastModified ?? since)
    } else {
      var offset: Int64 = 0
      var newest: Int64?
      for _ in 0..<Self.maximumPages {
        let answer = try await api.object(
          "items",
          query: [
            ("type", "3"), ("id", "0"), ("getRead", "true"), ("batchSize", String(Self.batchSize)),
            ("offset", String(offset)), ("oldestFirst", "false"),
          ])
        let (page, modified, count) = try page(answer)
        items += page
        newest = [newest, modified].compactMap { $0 }.max()
        let lowest = page.compactMap { Int64($0.id) }.min()
        guard count == Self.batchSize, let lowest, offset == 0 || lowest < offset else { break }
        offset = lowest
      }
      state.lastModified = newest
    }
    state.syncedAt = now
    return (items, state)
  }

  func states(known: AccountItems, items: [AccountItem]) async throws -> (
    unread: Set<String>, saved: Set<String>
  ) {
    var saved = known.saved ?? []
    for item in items {
      if item.isSaved { saved.insert(item.id) } else { saved.remove(item.id) }
    }
    return (movedUnread(known, by: items), saved)
  }

  func unreadIDs() async throws -> Set<String> {
    try await ids([("type", "3"), ("getRead", "false")])
  }

  func savedIDs() async throws -> Set<String> {
    try await ids([("type", "2"), ("getRead", "true")])
  }

  /// The API cannot say whether an item exists: those leaving the unread or saved ids came
  /// with their new state (a deleted item never does, and stays here as it was).
  func existing(_ ids: Set<String>) async throws -> Set<String> { ids }

  func send(_ marks: [AccountMark], accepted: @Sendable ([AccountMark]) throws -> Void)
    async throws
  {
    for mark in marks where mark.feedBefore != nil {
      let newest = mark.newestItem.flatMap { Int64($0) } ?? Int64.max / 2
      try await api.send("POST", "feeds/\(mark.item)/read", body: ["newestItemId": newest])
      try accepted([mark])
    }
    let grouped = Dictionary(grouping: marks.filter { $0.feedBefore == nil }, by: \.change)
    let paths: [(AccountMark.Change, String)] = [
      (.read, "items/read/multiple"), (.unread, "items/unread/multiple"),
      (.saved, "items/star/multiple"), (.unsaved, "items/unstar/multiple"),
    ]
    for (change, path) in paths {
      for batch in AccountAPI.batches(grouped[change] ?? [], of: Self.markBatch) {
        try await api.send("POST", path, body: ["itemIds": batch.compactMap { Int64($0.item) }])
        try accepted(batch)
      }
    }
  }

  func subscribe(_ url: String, folder: String?) async throws {
    var folderID: Any = NSNull()
    if let folder {
      if let id = try await folders().first(where: {
        $0.value.caseInsensitiveCompare(folder) == .orderedSame
      })?.key {
        folderID = Int64(id) ?? NSNull()
      } else {
        let made = try await api.object("folders", method: "POST", body: ["name": folder])
        let id = ((made["folders"] as? [[String: Any]])?.first?["id"]).flatMap(FeverClient.id)
        folderID = id.flatMap { Int64($0) } ?? NSNull()
      }
    }
    try await api.send("POST", "feeds", body: ["url": url, "folderId": folderID])
  }

  func unsubscribe(_ feed: AccountFeed) async throws {
    try await api.send("DELETE", "feeds/\(feed.id)")
  }

  func readItem() async throws -> String? {
    let answer = try await api.object(
      "items", query: [("type", "3"), ("id", "0"), ("getRead", "true"), ("batchSize", "50")])
    return try page(answer).items.first { $0.isRead }?.id
  }

  /// Folder id → name.
  private func folders() async throws -> [String: String] {
    let answer = try await api.object("folders")
    var names: [String: String] = [:]
    for folder in answer["folders"] as? [[String: Any]] ?? [] {
      if let id = FeverClient.id(folder["id"]), let name = (folder["name"] as? String).nonEmpty {
        names[id] = name
      }
    }
    return names
  }

  /// Every id of a listing (`batchSize=-1`: all of it).
  private func ids(_ query: [(String, String)]) async throws -> Set<String> {
    let answer = try await api.object("items", query: query + [("id", "0"), ("batchSize", "-1")])
    return Set(try page(answer).items.map(\.id))
  }

  /// The items of an answer, the highest `lastModified` among them (a number or, in v1.3, a
  /// string), and how many it held.
  private func page(_ answer: [String: Any]) throws -> (
    items: [AccountItem], lastModified: Int64?, count: Int
  ) {
    guard let items = answer["items"] as? [[String: Any]] else {
      throw api.wrongShape("no 'items' list")
    }
    let modified = items.compactMap { FeverClient.id($0["lastModified"]).flatMap { Int64($0) } }
    return (items.compactMap(item), modified.max(), items.count)
  }

  /// One item; `nil` without an id.
  private func item(_ object: [String: Any]) -> AccountItem? {
    guard let id = FeverClient.id(object["id"]) else { return nil }
    let enclosure = (object["enclosureLink"] as? String).nonEmpty.map {
      Enclosure(url: $0, type: (object["enclosureMime"] as? String).nonEmpty?.lowercased())
    }
    return AccountItem(
      id: id, feedID: FeverClient.id(object["feedId"]) ?? "",
      title: (object["title"] as? String) ?? "", url: (object["url"] as? String).nonEmpty,
      author: (object["author"] as? String).nonEmpty, html: (object["body"] as? String).nonEmpty,
      publishedAt: (object["pubDate"] as? NSNumber).map {
        Date(timeIntervalSince1970: $0.doubleValue)
      },
      isRead: !FeverClient.flag(object["unread"]), isSaved: FeverClient.flag(object["starred"]),
      enclosures: enclosure.map { [$0] } ?? [])
  }
}
