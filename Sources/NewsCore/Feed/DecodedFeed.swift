import FeedParsing

/// What an adapter read of a source's answer: its items, what it left out, and what the
/// document says of itself.
public struct DecodedFeed: Sendable {
  /// The items, in the document's order.
  public var items: [FeedItem]
  /// What was left out while reading it, one line each (for warnings).
  public var notes: [String] = []
  /// How long the document says it stays the same (RSS `<ttl>`, `sy:updatePeriod`), if it says.
  public var refreshHint: FreshnessHint?
  /// The feed's own title (its channel's `<title>`; a page's `<title>`), if it has one.
  public var title: String?
  /// The site the feed is of (its channel's `<link>`, Atom's alternate link), as written.
  public var site: String?

  public init(
    items: [FeedItem], notes: [String] = [], refreshHint: FreshnessHint? = nil,
    title: String? = nil, site: String? = nil
  ) {
    self.items = items
    self.notes = notes
    self.refreshHint = refreshHint
    self.title = title
    self.site = site
  }
}
