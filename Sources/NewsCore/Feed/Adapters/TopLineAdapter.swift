import Foundation

/// Source C: `[{"topLine","subLine1","subline2","image"}]`; the subtitle is `subLine1` and
/// `subline2` joined as given (mind the different casing of the two fields).
struct TopLineAdapter: FeedAdapter {
  struct Entry: Decodable {
    var topLine: String?
    var subLine1: String?
    var subline2: String?
    var image: String?
  }

  func items(from data: Data, source: String) throws -> [FeedItem] {
    try decode([Entry].self, from: data, source: source).compactMap { entry in
      let subtitle =
        entry.subLine1 == nil && entry.subline2 == nil
        ? nil : (entry.subLine1 ?? "") + (entry.subline2 ?? "")
      return entry.topLine.flatMap {
        FeedItem(feed: source, title: $0, description: subtitle, imageURL: entry.image)
      }
    }
  }
}
