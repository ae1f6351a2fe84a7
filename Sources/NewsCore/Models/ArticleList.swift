import Foundation

/// A list of articles: one page as a provider returned it, search results or the bookmarks.
public struct ArticleList: Sendable, Equatable, Codable {
  /// The provider (`newsapi`, `articles`, `bbc`).
  public var provider: String
  /// How many articles match in all (newsapi.org's `totalResults`), or the list's length.
  public var totalResults: Int
  /// The articles, in the provider's order.
  public var articles: [Article]
  /// When they were fetched.
  public var fetchedAt: Date
  /// What the user should know about the answer (items left out, and why); never stored.
  public var warnings: [String] = []

  /// Creates a page.
  public init(provider: String, totalResults: Int, articles: [Article], fetchedAt: Date) {
    self.provider = provider
    self.totalResults = totalResults
    self.articles = articles
    self.fetchedAt = fetchedAt
  }

  enum CodingKeys: String, CodingKey {
    case provider, totalResults, articles, fetchedAt
  }
}
