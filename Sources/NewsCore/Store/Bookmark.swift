import Foundation

/// A bookmark: a full copy of the article, kept whatever the retention policy says.
struct Bookmark: Codable, Sendable {
  var article: Article
  var addedAt: Date
}
