import Foundation

/// Source B: `{"metadata":{"innerdata":[{"aticleId","articlewrapper":{"header","description"},
/// "picture"}]}}` (the id's field really is spelt `aticleId`; it is not needed).
struct InnerDataAdapter: FeedAdapter {
  struct Wire: Decodable {
    struct Metadata: Decodable { var innerdata: [Entry] }
    struct Entry: Decodable {
      struct Wrapper: Decodable {
        var header: String?
        var description: String?
      }
      var articlewrapper: Wrapper?
      var picture: String?
    }
    var metadata: Metadata
  }

  func items(from data: Data, source: String) throws -> [FeedItem] {
    try decode(Wire.self, from: data, source: source).metadata.innerdata.compactMap { entry in
      entry.articlewrapper?.header.flatMap {
        FeedItem(
          feed: source, title: $0, description: entry.articlewrapper?.description,
          imageURL: entry.picture)
      }
    }
  }
}
