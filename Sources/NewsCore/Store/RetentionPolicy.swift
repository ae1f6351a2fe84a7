import Foundation

/// How much history the store keeps per provider.
public struct RetentionPolicy: Sendable, Equatable {
  /// Articles not seen for longer than this are dropped.
  public var maximumAge: Duration
  /// At most this many articles per provider (the most recently seen are kept).
  public var maximumCount: Int

  /// `NEWS_RETENTION_DAYS=0`: kept however long ago they were seen (a hundred years).
  public static let forever: Duration = .seconds(36_500 * 86_400)
  /// `NEWS_RETENTION_MAX=0`: no limit (a billion a provider, which no store reaches; a bound
  /// the compaction's arithmetic never overflows with).
  public static let unlimited = 1_000_000_000

  /// Keeps everything: no age and no count limit.
  public static let everything = RetentionPolicy(maximumAge: forever, maximumCount: unlimited)

  /// Creates a policy; the defaults are 30 days and 5,000 articles.
  public init(maximumAge: Duration = .seconds(30 * 86_400), maximumCount: Int = 5000) {
    self.maximumAge = maximumAge
    self.maximumCount = maximumCount
  }
}
