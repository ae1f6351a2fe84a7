import Foundation

/// How a source's items were obtained.
public enum FeedSourceStatus: String, Sendable, Codable {
  /// Fetched now (or revalidated with a 304).
  case fresh
  /// Served from the cache within its time to live, without a request.
  case cached
  /// The fetch failed; older cached items stand in.
  case stale
  /// The fetch failed and nothing was cached.
  case failed
}
