import Foundation

/// How much history the store keeps per provider.
public struct RetentionPolicy: Sendable, Equatable {
  /// Articles not seen for longer than this are dropped.
  public var maximumAge: Duration
  /// At most this many articles per provider (the most recently seen are kept).
  public var maximumCount: Int

  /// Creates a policy; the defaults are 30 days and 5,000 articles.
  public init(maximumAge: Duration = .seconds(30 * 86_400), maximumCount: Int = 5000) {
    self.maximumAge = maximumAge
    self.maximumCount = maximumCount
  }
}
