import Foundation

/// What the cache keeps of a source's last good answer.
struct FeedCacheEntry: Codable, Sendable {
  /// The URL it came from: a changed URL makes the entry useless.
  var url: String
  var items: [FeedItem]
  var fetchedAt: Date
  var etag: String?
  var lastModified: String?
}
