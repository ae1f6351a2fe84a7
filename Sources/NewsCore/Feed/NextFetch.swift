import FeedParsing
import Foundation

/// When a source is asked next by a run that does not refresh everything (`news sync`, a plain
/// `news feed`), and why: what ``RefreshBounds`` decided, or a wait the server or failures set.
public struct NextFetch: Sendable, Equatable {
  /// Why it is then.
  public enum Reason: Sendable, Equatable {
    /// The source's own `"ttl"` (config.json or `NEWS_FEED_<NAME>_TTL`).
    case ttl
    /// How often it posts: the seconds between its last items (``PostingRate``), before the
    /// bounds (``RefreshBounds``) apply.
    case posts(every: Double)
    /// What the feed or its server said (`<ttl>`, `sy:updatePeriod`, `Cache-Control`,
    /// `Expires`): never asked sooner.
    case hint(FreshnessHint.Kind)
    /// Nothing to go by (no dated item, no hint): the shortest interval.
    case noDates
    /// The server answered `429` or `503` with `Retry-After`.
    case retryAfter
    /// It failed run after run (``FeedService/failureBackoff(_:)``).
    case failing(runs: Int)
    /// Never fetched: the next run asks it.
    case neverFetched
    /// A saved search: every run answers it from the store.
    case everyRun
    /// An account's feed: its account's sync fetches it.
    case account
    /// Disabled: no run asks it until it is enabled again.
    case disabled
  }

  /// When; `nil` when it is not a time (the next run, every run, its account's sync).
  public var at: Date?
  /// Why.
  public var reason: Reason
  /// The interval the reason gave (seconds), where there is one: the bounds applied to a
  /// posting rate show here.
  public var interval: Double?
  /// How often the source posts (seconds between its last items), whatever decided the time;
  /// `nil` when not known.
  public var postsEvery: Double?
}
