import Foundation

/// One page of articles as a provider returned it.
public struct HeadlinesPage: Sendable, Equatable, Codable {
  /// The provider (`newsapi`, `articles`, `bbc`).
  public var provider: String
  /// How many articles match in all (newsapi.org's `totalResults`), or the list's length.
  public var totalResults: Int
  /// The articles, in the provider's order.
  public var articles: [Article]
  /// When they were fetched.
  public var fetchedAt: Date

  /// Creates a page.
  public init(provider: String, totalResults: Int, articles: [Article], fetchedAt: Date) {
    self.provider = provider
    self.totalResults = totalResults
    self.articles = articles
    self.fetchedAt = fetchedAt
  }
}
