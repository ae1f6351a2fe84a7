import Foundation

/// The "adapter" of an account's feed: a source answered from the store (``FeedService``),
/// its items brought by `news sync` from the account's server, so there is nothing to decode.
struct AccountFeedAdapter: FeedAdapter {
  var format: String { "account" }

  func items(from data: Data, source: String) throws -> [FeedItem] {
    throw FeedError.undecodable(
      source: source, detail: "an account's feed is synced from its server")
  }
}
