import Foundation

/// What `news` knows of an account between syncs (store file `account-<name>`): its feeds, where
/// the next incremental sync starts, and when it last synced. The map from the server's item
/// ids to article ids is kept apart (``AccountItems``): listing sources does not read it.
public struct AccountState: Codable, Sendable, Equatable {
  /// The account's subscriptions at the last sync, each with its source name.
  public var feeds: [AccountFeed] = []
  /// Fever, Miniflux, Tiny Tiny RSS: the highest item id received (`since_id`,
  /// `after_entry_id` of the next sync).
  public var lastItemID: Int64?
  /// Google Reader, Miniflux, Feedbin: when the last sync started (`ot`, `changed_after`,
  /// `since` of the next one).
  public var syncedAt: Date?
  /// Nextcloud News: the highest `lastModified` received (of the next `items/updated`).
  public var lastModified: Int64?
  /// When the last sync finished.
  public var lastSyncAt: Date?

  /// Creates an empty state.
  public init() {}

  /// Gives each feed its source name, `<account>/<slug>`: the slug of its title (lower-case
  /// letters, digits and `-`, at most 40), made unique with `-2`, `-3`, …; a feed keeps the name
  /// it had (`previous`), so that renaming a feed on the server does not move its items here.
  public mutating func assignNames(account: String, previous: [AccountFeed]) {
    let kept = Dictionary(
      previous.map { ($0.id, $0.source) }, uniquingKeysWith: { first, _ in first })
    var taken = Set<String>()
    for index in feeds.indices {
      if let name = kept[feeds[index].id], !name.isEmpty, !taken.contains(name) {
        feeds[index].source = name
        taken.insert(name)
      }
    }
    for index in feeds.indices where feeds[index].source.isEmpty {
      let base = account + "/" + Self.slug(feeds[index].title, fallback: feeds[index].id)
      var name = base
      var number = 2
      while taken.contains(name) {
        name = base + "-\(number)"
        number += 1
      }
      feeds[index].source = name
      taken.insert(name)
    }
  }

  /// `Hacker News: Front Page` → `hacker-news-front-page`.
  static func slug(_ title: String, fallback: String) -> String {
    let slug = SourceName.slug(title, maxLength: 40)
    guard slug.isEmpty else { return slug }
    return fallback.isEmpty ? SourceName.untitled : SourceName.slug(fallback, maxLength: 40)
  }
}

/// The server's item ids of an account's stored items and their article ids (store file
/// `account-<name>-items`), both ways: marks made here are sent under the server's id.
public struct AccountItems: Codable, Sendable, Equatable {
  /// Server item id → article id.
  public var articles: [String: String] = [:]
  /// The ids the server said were unread at the last sync (`nil` before the first): a sync
  /// applies only what changed since.
  public var unread: Set<String>?
  /// The ids the server said were saved at the last sync.
  public var saved: Set<String>?
  /// The ids the server no longer has (deleted there, or their feed unsubscribed): their
  /// articles, read state and bookmarks stay here as they were; no mark is sent for them.
  public var gone: Set<String>?

  /// Creates an empty map.
  public init() {}

  /// The items that were unread, or saved, at the last sync and are no longer: read or unsaved
  /// elsewhere since, or gone from the server.
  func leaving(unread: Set<String>, saved: Set<String>) -> Set<String> {
    (self.unread ?? []).subtracting(unread).union((self.saved ?? []).subtracting(saved))
  }

  /// The server's ids of the articles `ids` (those of this account): every item behind each,
  /// as two server items with one link are one article here. Each article's items ascending.
  public func items(of ids: some Sequence<String>) -> [String: [String]] {
    let wanted = Set(ids)
    var found: [String: [String]] = [:]
    for (item, article) in articles where wanted.contains(article) {
      found[article, default: []].append(item)
    }
    return found.mapValues { $0.sorted { ($0.count, $0) < ($1.count, $1) } }
  }
}
