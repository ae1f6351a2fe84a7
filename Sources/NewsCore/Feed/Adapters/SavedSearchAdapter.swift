import Foundation

/// The "adapter" of a saved search: a source answered from the store (``FeedService``), never
/// fetched, so there is nothing to decode.
struct SavedSearchAdapter: FeedAdapter {
  var format: String { "search" }

  func items(from data: Data, source: String) throws -> [FeedItem] {
    throw FeedError.undecodable(source: source, detail: "a saved search is answered from the store")
  }

  /// The address a saved search stands at: `search:<words>`, percent-encoded.
  static func url(_ words: String) -> URL {
    let encoded =
      words.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"]))
      ?? "search"
    return URL(string: "search:" + encoded) ?? URL(fileURLWithPath: "/")
  }
}
