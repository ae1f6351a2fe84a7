import Foundation

/// A web feed as read from its document: its own title, its entries, and what reading it left
/// out (for warnings).
struct FeedDocument: Sendable, Equatable {
  /// The feed's title (its `channel` or `feed` title), plain text.
  var title: String?
  /// Every entry (`item`, `entry`) in document order, empty ones included.
  var entries: [SyndicationEntry] = []
  /// What was left out while reading, one line each (`3 elements nested deeper than 256 ignored`).
  var notes: [String] = []
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
