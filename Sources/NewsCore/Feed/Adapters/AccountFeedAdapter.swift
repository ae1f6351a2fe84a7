import Foundation

/// The "adapter" of an account's feed: a source answered from the store (``FeedService``),
/// its items brought by `news sync` from the account's server, so there is nothing to decode.
struct AccountFeedAdapter: FeedAdapter {
  /// Whether the source's URL is the feed's own address, as its server gave it (`false`: the
  /// server named none, and the URL is the account's).
  var isFeedAddress = false

  var format: String { "account" }

  func items(from data: Data, source: String) throws -> [FeedItem] {
    throw FeedError.undecodable(
      source: source, detail: "an account's feed is synced from its server")
  }
}
