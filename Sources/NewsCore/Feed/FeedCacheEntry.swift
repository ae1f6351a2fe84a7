import FeedParsing
import Foundation

/// What the cache keeps of a source's last good answer.
struct FeedCacheEntry: Codable, Sendable {
  /// The URL it came from: a changed URL makes the entry useless.
  var url: String
  var items: [FeedItem]
  var fetchedAt: Date
  var etag: String?
  var lastModified: String?
  /// Whether the items were kept as articles of the source (entries written before feed items
  /// were articles were not: they are kept once, when next read).
  var kept: Bool?
  /// How long the source said its answer stays the same (seconds): its document's `<ttl>` or
  /// `sy:updatePeriod`, or the response's `Cache-Control: max-age` or `Expires`, the longest.
  var freshFor: Double?
  /// Which of them said ``freshFor`` (``FreshnessHint/Kind``'s raw value; `nil` in entries
  /// written before it was kept).
  var freshKind: String?
  /// How often the source posts (seconds), as its items said when they were fetched
  /// (``PostingRate``); `nil` when no item is dated.
  var postsEvery: Double?
  /// The feed's own title and site (its channel's `<title>` and `<link>`), as its document said
  /// when it was fetched: what `news sources`, `sources export` and `news serve` show for a
  /// source whose configuration names neither (an import of bare addresses). `nil` in entries
  /// written before they were kept.
  var title: String?
  var site: String?
  /// When the entry itself was written (its `fetchedAt` as stored, before a later `304` moved
  /// `fetchedAt` on: see ``RevalidationTimes``). Not stored.
  var writtenAt: Date?

  /// Keeps the feed's own title and site as `read` gives them (a site only as an http(s)
  /// address, without a user name or password).
  mutating func describe(as read: DecodedFeed) {
    title = read.title
    site = read.site.flatMap { URL.web($0) }.map(\.withoutCredentials.absoluteString)
  }

  /// What the source said of its freshness, if it said (an entry of before the kind was kept
  /// names it the feed's `<ttl>`).
  var hint: FreshnessHint? {
    get {
      freshFor.map { seconds in
        FreshnessHint(
          seconds: seconds, kind: freshKind.flatMap(FreshnessHint.Kind.init) ?? .feedTTL)
      }
    }
    set {
      freshFor = newValue?.seconds
      freshKind = newValue?.kind.rawValue
    }
  }
}
