import Foundation

/// How long a source's answer is kept before a run asks again: its own `"ttl"` when it has one;
/// else how often it posts, bounded by ``minimum`` and ``maximum``, or longer when the feed or
/// its server says the answer stays the same longer (capped at ``longestHint``).
public struct RefreshBounds: Sendable, Equatable {
  /// The shortest interval (`NEWS_REFRESH_MIN`); `nil`: each source's default `ttl` (15 minutes
  /// for a web feed; 5, 30 and 60 for the built-in A, B and C).
  public var minimum: Double?
  /// The longest interval a posting rate gives (`NEWS_REFRESH_MAX`, a day by default).
  public var maximum: Double
  /// The longest a feed's or server's hint keeps an answer, unless ``maximum`` is longer (a
  /// feed saying `<ttl>` of a year is asked again after a day).
  public static let longestHint: Double = 86_400

  /// Bounds of `minimum` and `maximum` seconds.
  public init(minimum: Double? = nil, maximum: Double = 86_400) {
    self.minimum = minimum
    self.maximum = maximum
  }
}
