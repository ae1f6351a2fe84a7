import Foundation

/// An ordered list of article ids as a command showed it.
public struct Listing: Codable, Sendable, Equatable {
  /// Which query produced it (`newsapi country=us …`), or a name such as `search`.
  public var key: String
  /// The provider of the articles (or `search`, `bookmarks`).
  public var provider: String
  /// The ids, in the order shown.
  public var ids: [String]
  /// The provider's total for the query.
  public var totalResults: Int
  /// When the articles were fetched.
  public var fetchedAt: Date
  /// The articles themselves, in order, so that reading the list back (`--offline`,
  /// `news show 3`) needs neither the provider's whole file nor its retention. `nil` in listings
  /// written by earlier versions, and in a last listing too long to carry them.
  public var articles: [Article]?

  /// The most articles a last listing carries: a longer list (a feed of 10,000 items, a search
  /// finding thousands) keeps ids only, so that every command does not rewrite megabytes; its
  /// items are then looked up by id.
  public static let maximumCarried = 1000

  /// Creates a listing.
  public init(key: String, provider: String, ids: [String], totalResults: Int, fetchedAt: Date) {
    self.key = key
    self.provider = provider
    self.ids = ids
    self.totalResults = totalResults
    self.fetchedAt = fetchedAt
  }
}
