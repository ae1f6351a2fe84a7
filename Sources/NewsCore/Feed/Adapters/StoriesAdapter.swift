import Foundation

/// Source A: `{"stories":[{"title","subtitle","imageUrl"}]}`.
struct StoriesAdapter: FeedAdapter {
  struct Wire: Decodable {
    struct Story: Decodable {
      var title: String?
      var subtitle: String?
      var imageUrl: String?
    }
    var stories: [Story]
  }

  func items(from data: Data, source: String) throws -> [FeedItem] {
    try decode(Wire.self, from: data, source: source).stories.compactMap { story in
      story.title.flatMap {
        FeedItem(feed: source, title: $0, description: story.subtitle, imageURL: story.imageUrl)
      }
    }
  }
}
