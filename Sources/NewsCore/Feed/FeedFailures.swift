import Foundation

/// Which feed sources are failing, since when and why, kept across runs in the cache
/// directory's `failures` file: a source failing run after run is said in one line by `feed`
/// and `sync` (`3 sources failing since 2 days: news sources --failing`), not a block each run,
/// and browse's home row says the failure rather than "never fetched". A source that answers
/// again is taken off.
public struct FeedFailures: Sendable {
  let store: EncryptedStore

  /// One failing source.
  public struct Failure: Codable, Sendable, Equatable {
    /// When it first failed, of the failures in a row (seconds since 1970).
    public var since: Double
    /// When it last failed.
    public var last: Double
    /// What the last failure said.
    public var error: String
    /// How many runs in a row failed (`nil` in records of earlier versions: at least one).
    public var count: Int?

    /// How many runs in a row failed.
    public var failures: Int { count ?? 1 }
  }

  /// Every failing source (an unreadable file: none).
  public func read() -> [String: Failure] {
    (try? store.read([String: Failure].self, name: StoreLayout.failures)) ?? [:]
  }

  /// Records this run's `failed` sources (name → error) and takes the `answered` ones off; the
  /// file is written only when something changed.
  func record(failed: [String: String], answered: Set<String>, now: Date) throws {
    let before = read()
    guard !failed.isEmpty || !answered.isDisjoint(with: before.keys) else { return }
    try store.update(StoreLayout.failures, initial: [String: Failure]()) { failures in
      for name in answered { failures[name] = nil }
      for (name, error) in failed {
        let since = failures[name]?.since ?? now.timeIntervalSince1970
        let count = (failures[name]?.failures ?? 0) + 1
        failures[name] = Failure(
          since: since, last: now.timeIntervalSince1970, error: error, count: count)
      }
    }
  }
}
