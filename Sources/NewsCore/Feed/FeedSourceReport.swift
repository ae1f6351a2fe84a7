import Foundation

/// One source's part of the feed.
public struct FeedSourceReport: Sendable {
  /// The source's name.
  public var name: String
  /// Its URL.
  public var url: URL
  /// How its items were obtained.
  public var status: FeedSourceStatus
  /// When its items were fetched, if there are any.
  public var fetchedAt: Date?
  /// When they stop being fresh.
  public var expiresAt: Date?
  /// Why it is asked again then (``expiresAt``), for an answer from the cache or the network.
  public var next: NextFetch?
  /// Why the fetch failed.
  public var error: String?
  /// What to do about ``error``, when something can be done.
  public var advice: Advice?
  /// Its items (none when they are packed: ``pack``).
  public var items: [FeedItem]
  /// Its items packed, when the fetch was asked to pack them (``FeedService/fetch(_:refresh:offline:keepingItems:keepingNewItems:packingItems:progress:)``).
  public var pack: FeedItemPack?
  /// HTTP attempts made (0 when served from the cache).
  public var attempts: Int
  /// How many of the items were not in the cache before.
  public var newItems: Int
  /// Why its items could not be kept as articles (they are shown all the same).
  public var notKept: String?
  /// What the user should know: entries left out.
  public var warnings: [String] = []
  /// Whether the source answered `304 Not Modified` and only the time was written.
  public var revalidated = false
  /// Offline, with nothing cached: the source was never fetched (not a failure to read).
  public var neverFetched = false
  /// Not asked this run, and failed for it: failing run after run, or its server asked for a
  /// pause (`Retry-After`), it is left alone until ``next``'s time.
  public var leftAlone = false
  /// How many items the source answered with (when `items` were dropped, as a sync drops them).
  public var itemCount = 0
  /// The items not in the cache before this fetch (what a `newItem` hook runs for; none at a
  /// source's first answer, ``firstAnswer``).
  public var newItemList: [FeedItem] = []
  /// Whether nothing of the source was cached before this answer (a subscription's first
  /// fetch, as after `sources import`): its items are what it held, not news to a hook.
  var firstAnswer = false
  /// The ids of those items (kept when the items themselves are not: `news feed --new`).
  public var newItemIDs: [String] = []
  /// Until when the server asked not to be asked again (`429` or `503` with `Retry-After`).
  var backoffUntil: Date?
  /// Whether its cached items were left in the cache (a sync's source asked again, counted
  /// from the cache's directory): read only if its answer needs them.
  var itemsDeferred = false

  /// The ids of its items, packed or not.
  public var itemIDs: [String] { pack?.ids ?? items.map(\.id) }

  /// Keeps the items whose id `isIncluded` accepts, packed or not.
  public mutating func keepItems(where isIncluded: (String) -> Bool) {
    if pack != nil {
      pack?.filter(isIncluded)
    } else {
      items.removeAll { !isIncluded($0.id) }
    }
  }

  /// Its items, decoded from ``pack`` when they are packed.
  public var unpackedItems: [FeedItem] { pack?.items ?? items }

  /// The first `count` of its items, decoded (only those) from ``pack`` when they are packed.
  func firstItems(_ count: Int) -> [FeedItem] {
    guard var first = pack else { return Array(items.prefix(count)) }
    first.prefix(count)
    return first.items
  }

  /// Moves the items into ``pack``, unless they are there.
  mutating func packItems() {
    guard pack == nil else { return }
    pack = FeedItemPack(items)
    items = []
  }

  /// Moves the items out of ``pack``, if they are there.
  mutating func unpackItems() {
    guard let pack else { return }
    items = pack.items
    self.pack = nil
  }

  /// Holds its items as a run was asked to give them (``FeedRun/Options/items``): packed, as
  /// values, or (counted) as they are.
  mutating func give(_ shape: FeedRun.Options.Items) {
    switch shape {
    case .packed: packItems()
    case .unpacked: unpackItems()
    case .counted: break
    }
  }
}
