/// How long a feed, or the response that carried it, says its answer stays the same, and which
/// of them said it: a refresh never asks sooner, and `news sources` says why.
public struct FreshnessHint: Sendable, Equatable {
  /// Who said it.
  public enum Kind: String, Sendable, CaseIterable {
    /// RSS `<ttl>` (minutes).
    case feedTTL
    /// RSS 1.0's `sy:updatePeriod` and `sy:updateFrequency`.
    case updatePeriod
    /// The response's `Cache-Control: max-age`.
    case cacheControl
    /// The response's `Expires` against its `Date`.
    case expires
  }

  /// Seconds the answer stays the same.
  public var seconds: Double
  /// Who said so.
  public var kind: Kind

  /// A hint of `seconds` said by `kind`.
  public init(seconds: Double, kind: Kind) {
    self.seconds = seconds
    self.kind = kind
  }

  /// The longest of `hints` (the later wins a tie): each says the answer stays the same at
  /// least that long.
  public static func longest(_ hints: [FreshnessHint?]) -> FreshnessHint? {
    hints.compactMap { $0 }.max { $0.seconds < $1.seconds }
  }
}
