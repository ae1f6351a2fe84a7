import Foundation

/// A web feed as read from its document: its own title, its entries, and what reading it left
/// out (for warnings).
package struct FeedDocument: Sendable, Equatable {
  /// The feed's title (its `channel` or `feed` title), plain text.
  package var title: String?
  /// The site the feed is of: RSS's channel `<link>`, Atom's feed `<link rel="alternate">`,
  /// JSON Feed's `home_page_url` (an absolute http(s) URL, else `nil`).
  package var site: String?
  /// Every entry (`item`, `entry`) in document order, empty ones included.
  package var entries: [SyndicationEntry] = []
  /// What was left out while reading, one line each (`3 elements nested deeper than 256 ignored`).
  package var notes: [String] = []
  /// RSS `<ttl>`: minutes the channel may be cached.
  package var ttlMinutes: Int?
  /// `sy:updatePeriod` (`hourly`, `daily`, `weekly`, `monthly`, `yearly`) and
  /// `sy:updateFrequency` (updates a period).
  package var updatePeriod: String?
  package var updateFrequency: Int?

  /// How long the feed says it stays the same, in seconds: its `<ttl>`, else its period divided
  /// by its frequency (RSS 1.0's syndication module); `nil` when it says nothing usable.
  package var refreshHint: FreshnessHint? {
    if let ttlMinutes, ttlMinutes > 0 {
      return FreshnessHint(seconds: Double(ttlMinutes) * 60, kind: .feedTTL)
    }
    let periods: [String: Double] = [
      "hourly": 3_600, "daily": 86_400, "weekly": 604_800, "monthly": 2_592_000,
      "yearly": 31_536_000,
    ]
    guard let period = updatePeriod.flatMap({ periods[$0.lowercased()] }) else { return nil }
    let frequency = max(updateFrequency ?? 1, 1)
    return FreshnessHint(seconds: period / Double(frequency), kind: .updatePeriod)
  }
}

/// Where a feed document came from: what the HTTP response said about it.
public struct FeedOrigin: Sendable, Equatable {
  /// The URL the document was served from (after redirects): relative links resolve against it.
  public var url: URL?
  /// The `Content-Type` header, whose `charset` outranks the XML declaration.
  public var contentType: String?

  /// An origin.
  public init(url: URL? = nil, contentType: String? = nil) {
    self.url = url
    self.contentType = contentType
  }
}
