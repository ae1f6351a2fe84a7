import FeedParsing
import Foundation

/// Feedbin's API v2 (`https://api.feedbin.com/v2/`, HTTP Basic with the e-mail address):
/// subscriptions and their taggings (folders), entries created since the last sync
/// (`entries.json?since=`, 100 a page, the next page in the `Link` header), the unread and
/// starred ids as lists, marks by id, at most 1,000 a request. It has no call marking a feed
/// read: such a mark is its items'.
struct FeedbinClient: AccountClient {
  let account: Account
  let api: AccountAPI

  init(account: Account, password: String, transport: HTTPTransport) {
    self.account = account
    api = AccountAPI(
      account: account, transport: transport,
      headers: ["Authorization": AccountAPI.basic(account.user, password)])
  }

  /// Entries a page asks for.
  static let pageSize = 100
  /// Most pages one listing reads.
  static let maximumPages = 5_000
  /// Ids a mark request carries (the API's limit).
  static let batchSize = 1_000

  func login() async throws {
    try await api.send("GET", "authentication.json")
  }

  func feeds() async throws -> [AccountFeed] {
    guard let subscriptions = try await api.list("subscriptions.json") as? [[String: Any]],
      let taggings = try await api.list("taggings.json") as? [[String: Any]]
    else { throw api.wrongShape("subscriptions.json or taggings.json is not a list") }
    var folders: [String: [String]] = [:]
    for tagging in taggings {
      if let feed = FeverClient.id(tagging["feed_id"]),
        let name = (tagging["name"] as? String).nonEmpty
      {
        folders[feed, default: []].append(name)
      }
    }
    return subscriptions.compactMap { subscription in
      guard let id = FeverClient.id(subscription["feed_id"]) else { return nil }
      let url = (subscription["feed_url"] as? String).nonEmpty
      return AccountFeed(
        id: id, title: subscription["title"] as? String, url: url, folders: folders[id] ?? [],
        site: subscription["site_url"])
    }
  }

  func newItems(after state: AccountState, now: Date) async throws -> (
    items: [AccountItem], state: AccountState
  ) {
    var state = state
    var query = [("per_page", String(Self.pageSize)), ("include_enclosure", "true")]
    if let since = state.syncedAt {
      let formatter = ISO8601DateFormatter()
      formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
      query.append(("since", formatter.string(from: since.addingTimeInterval(-60))))
    }
    let (unread, saved) = (try await unreadIDs(), try await savedIDs())
    var items: [AccountItem] = []
    var next: URL? = api.url("entries.json", query)
    for _ in 0..<Self.maximumPages {
      guard let url = next else { break }
      let response = try await api.send("GET", url: url)
      guard let page = try response.json(account: account.name) as? [[String: Any]] else {
        throw api.wrongShape("entries.json is not a list")
      }
      items += page.compactMap { item($0, unread: unread, saved: saved) }
      next = page.isEmpty ? nil : try nextPage(response)
    }
    state.syncedAt = now
    return (items, state)
  }

  func unreadIDs() async throws -> Set<String> {
    Set(try await api.list("unread_entries.json").compactMap(FeverClient.id))
  }

  func savedIDs() async throws -> Set<String> {
    Set(try await api.list("starred_entries.json").compactMap(FeverClient.id))
  }

  /// `entries.json?ids=`, 100 a request: the ids it answers with.
  func existing(_ ids: Set<String>) async throws -> Set<String> {
    var found = Set<String>()
    for batch in AccountAPI.batches(ids.sorted(), of: Self.pageSize) {
      let entries = try await api.list(
        "entries.json", query: [("ids", batch.joined(separator: ","))])
      found.formUnion(
        entries.compactMap { ($0 as? [String: Any])?["id"] }.compactMap(FeverClient.id))
    }
    return found.intersection(ids)
  }

  func send(_ marks: [AccountMark], accepted: @Sendable ([AccountMark]) throws -> Void)
    async throws
  {
    let grouped = Dictionary(grouping: marks.filter { $0.feedBefore == nil }, by: \.change)
    let calls: [(AccountMark.Change, method: String, path: String, field: String)] = [
      (.read, "DELETE", "unread_entries.json", "unread_entries"),
      (.unread, "POST", "unread_entries.json", "unread_entries"),
      (.saved, "POST", "starred_entries.json", "starred_entries"),
      (.unsaved, "DELETE", "starred_entries.json", "starred_entries"),
    ]
    for (change, method, path, field) in calls {
      for batch in AccountAPI.batches(grouped[change] ?? [], of: Self.batchSize) {
        try await api.send(method, path, body: [field: batch.compactMap { Int64($0.item) }])
        try accepted(batch)
      }
    }
    // A feed's mark never reaches here (the outbox queues its items); one that did is dropped.
    try accepted(marks.filter { $0.feedBefore != nil })
  }

  /// Subscribes (201; 302 leads to the subscription there is already): 404 is no feed found
  /// there, 300 several, listed.
  func subscribe(_ url: String, folder: String?) async throws {
    let response = try await api.send(
      "POST", "subscriptions.json", body: ["feed_url": url], accepting: [300, 404])
    if response.status == 404 || response.status == 300 {
      var offered: [[String: Any]] = []
      do {
        offered = try JSONSerialization.jsonObject(with: response.body) as? [[String: Any]] ?? []
      } catch {
        offered = []  // No list of feeds: none to name.
      }
      let feeds = offered.compactMap { ($0["feed_url"] as? String).nonEmpty }.prefix(5)
        .map { TerminalSanitizer.clean($0) }
      throw AccountError.notSubscribed(
        account: account.name, url: url,
        reason: response.status == 404 || feeds.isEmpty
          ? "Feedbin found no feed there"
          : "Feedbin found several feeds there (\(feeds.joined(separator: ", "))): "
            + "subscribe to one of them",
        unreachable: false)
    }
    guard let subscription = try response.json(account: account.name) as? [String: Any] else {
      throw api.wrongShape("subscriptions.json did not answer a JSON object")
    }
    guard let folder else { return }
    guard let feed = FeverClient.id(subscription["feed_id"]).flatMap({ Int64($0) }) else {
      throw api.wrongShape("the subscription has no feed_id")
    }
    try await api.send(
      "POST", "taggings.json", body: ["feed_id": feed, "name": folder] as [String: Any])
  }

  func unsubscribe(_ feed: AccountFeed) async throws {
    guard let subscriptions = try await api.list("subscriptions.json") as? [[String: Any]] else {
      throw api.wrongShape("subscriptions.json is not a list")
    }
    guard
      let id = subscriptions.first(where: { FeverClient.id($0["feed_id"]) == feed.id })
        .flatMap({ FeverClient.id($0["id"]) })
    else { return }
    try await api.send("DELETE", "subscriptions/\(id).json")
  }

  func readItem() async throws -> String? {
    let unread = try await unreadIDs()
    let page = try await api.list("entries.json", query: [("per_page", "50")])
    return page.compactMap { ($0 as? [String: Any])?["id"] }.compactMap(FeverClient.id)
      .first { !unread.contains($0) }
  }

  /// The `Link` header's `rel="next"` page, when it stays on the account's server.
  private func nextPage(_ response: HTTPResponse) throws -> URL? {
    guard let header = response.headers["link"] else { return nil }
    for part in header.split(separator: ",") where part.contains("rel=\"next\"") {
      guard let start = part.firstIndex(of: "<"), let end = part.firstIndex(of: ">"),
        start < end, let url = URL(string: String(part[part.index(after: start)..<end]))
      else { continue }
      guard RedirectPolicy.origin(of: url) == RedirectPolicy.origin(of: account.url),
        url.scheme == account.url.scheme
      else {
        throw api.wrongShape(
          "its next page is on another server (\(RedirectPolicy.origin(of: url)))")
      }
      return url
    }
    return nil
  }

  /// One entry as an item, its state from the unread and starred ids; `nil` without an id.
  private func item(_ object: [String: Any], unread: Set<String>, saved: Set<String>)
    -> AccountItem?
  {
    guard let id = FeverClient.id(object["id"]) else { return nil }
    var enclosures: [Enclosure] = []
    if let enclosure = object["enclosure"] as? [String: Any],
      let url = (enclosure["enclosure_url"] as? String).nonEmpty
    {
      enclosures.append(
        Enclosure(
          url: url, type: (enclosure["enclosure_type"] as? String).nonEmpty?.lowercased(),
          length: FeverClient.id(enclosure["enclosure_length"]).flatMap { Int($0) },
          duration: (enclosure["itunes_duration"] as? String).flatMap(Enclosure.seconds)))
    }
    return AccountItem(
      id: id, feedID: FeverClient.id(object["feed_id"]) ?? "",
      title: (object["title"] as? String) ?? "", url: (object["url"] as? String).nonEmpty,
      author: (object["author"] as? String).nonEmpty,
      html: (object["content"] as? String).nonEmpty ?? (object["summary"] as? String).nonEmpty,
      publishedAt: AccountAPI.date(object["published"]), isRead: !unread.contains(id),
      isSaved: saved.contains(id), enclosures: enclosures)
  }
}
