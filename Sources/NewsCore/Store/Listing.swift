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

  /// Creates a listing.
  public init(key: String, provider: String, ids: [String], totalResults: Int, fetchedAt: Date) {
    self.key = key
    self.provider = provider
    self.ids = ids
    self.totalResults = totalResults
    self.fetchedAt = fetchedAt
  }
}
