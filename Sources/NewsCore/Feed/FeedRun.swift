/// One refresh of feed sources (``FeedService/run(_:_:)``): how it is asked for, and what it came
/// to. A run goes through stages: it is planned (what the cache, a wait or a search answers
/// without a request), fetched (the rest, at most so many at once, each stored as it arrives),
/// recorded (what the run learnt: first-seen times, unchanged sources, waits, failures) and
/// enriched (the full texts of sources that keep them).
public struct FeedRun: Sendable {
  /// How a run is asked for.
  public struct Options: Sendable {
    /// When a source is asked rather than read from its cache.
    public enum Freshness: Sendable, Equatable {
      /// When its time to live has passed.
      case whenExpired
      /// Always (`--refresh`, a sync).
      case refresh
      /// Never: the cache only, whatever its age (`--offline`).
      case offline

      /// As a command line's `--refresh` and `--offline` say (`--offline` wins).
      public init(refresh: Bool, offline: Bool) {
        self = offline ? .offline : refresh ? .refresh : .whenExpired
      }
    }

    /// What each report holds of its items once its source finishes.
    public enum Items: Sendable, Equatable {
      /// The items, as values.
      case unpacked
      /// The items packed (``FeedSourceReport/pack``): a feed of 1,000 sources holds their text,
      /// not 50,000 values.
      case packed
      /// Only how many there were (``FeedSourceReport/itemCount``): a sync stores and shows
      /// nothing, so memory holds the sources in flight, not every item of the run.
      case counted
    }

    public var freshness: Freshness
    public var items: Items
    /// Whether each report's `newItemList` holds the items not in the cache before (what a
    /// `newItem` hook runs for); otherwise only `newItemIDs` names them (`feed --new`).
    public var newItems: Bool
    /// Told as each source finishes, with the number still running.
    public var progress: (@Sendable (Int) -> Void)?

    /// Options of a run: by default, sources asked when expired, items as values, new items
    /// listed.
    public init(
      freshness: Freshness = .whenExpired, items: Items = .unpacked, newItems: Bool = true,
      progress: (@Sendable (Int) -> Void)? = nil
    ) {
      self.freshness = freshness
      self.items = items
      self.newItems = newItems
      self.progress = progress
    }
  }

  /// Every source's report, in the order of the sources asked.
  public var reports: [FeedSourceReport]
  /// The run's own warnings (a record of the run that could not be written, and what that
  /// costs), apart from any source's.
  public var warnings: [String]
}
