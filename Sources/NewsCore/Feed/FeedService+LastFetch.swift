import Foundation

/// What is known of each source without asking it: its last fetch, when it is asked next and
/// why, and what keeps it waiting (a server's `Retry-After`, failures run after run).
extension FeedService {
  /// What the cache knows of a source's last fetch, and when it is asked next.
  public struct LastFetch: Sendable {
    /// When it was last fetched; `nil` when it never was (or its URL changed since).
    public var fetchedAt: Date?
    /// Why its cache does not open, if it does not.
    public var error: String?
    /// When a run that does not refresh everything asks it next, and why.
    public var next: NextFetch
    /// Whether it is failing run after run, since when and why (``FeedFailures``).
    public var failure: FeedFailures.Failure? = nil
    /// The feed's own title and site as its last answer gave them (for a source whose
    /// configuration names neither: ``FeedSource/describedBy(_:)``).
    public var title: String? = nil
    public var site: URL? = nil
  }

  /// When each of `sources` was last fetched and is asked next, read from the cache and the
  /// waits (``FeedBackoff``, ``FeedFailures``) without any request.
  public func lastFetches(_ sources: [FeedSource]) -> [LastFetch] {
    let waits = self.waits()
    return sources.map { source in
      var last = lastFetch(source, waits: waits)
      last.failure = waits.failing[source.name]
      return last
    }
  }

  /// ``lastFetches(_:)`` of one source.
  private func lastFetch(_ source: FeedSource, waits: Waits) -> LastFetch {
    // An account's feed is fetched by its account's sync, never through the cache.
    if source.account != nil {
      return LastFetch(
        fetchedAt: source.syncedAt, error: nil, next: NextFetch(at: nil, reason: .account))
    }
    if source.search != nil {
      return LastFetch(
        fetchedAt: nil, error: nil, next: NextFetch(at: nil, reason: .everyRun))
    }
    let (cached, _, error, _) = cachedEntry(source, items: false)
    var next = NextFetch(at: nil, reason: .neverFetched)
    if let cached {
      let (seconds, reason) = refreshBounds.lifetime(source, cached)
      next = NextFetch(
        at: cached.fetchedAt.addingTimeInterval(seconds), reason: reason, interval: seconds,
        postsEvery: cached.postsEvery)
    }
    if !source.enabled {
      next = NextFetch(at: nil, reason: .disabled, postsEvery: cached?.postsEvery)
    } else if let wait = waits.until(source), wait.until > (next.at ?? .distantPast) {
      next = NextFetch(at: wait.until, reason: wait.reason, postsEvery: cached?.postsEvery)
    }
    return LastFetch(
      fetchedAt: cached?.fetchedAt, error: error, next: next, title: cached?.title,
      site: cached?.site.flatMap { URL(string: $0) })
  }

  /// What keeps sources from being asked before a time: a server's `Retry-After` (for the
  /// source, or for its whole host after a `429`) and failures run after run.
  struct Waits {
    var asked: [String: Date]
    var failing: [String: FeedFailures.Failure]

    /// Until when `source` waits, and why; `nil` when it does not.
    func until(_ source: FeedSource) -> (until: Date, reason: NextFetch.Reason)? {
      var wait: (until: Date, reason: NextFetch.Reason)?
      // No host named when no server asked for a wait: a URL's host was a tenth of reading
      // 10,000 sources' last fetches.
      if !asked.isEmpty {
        for key in [source.name, FeedBackoff.hostKey(source.url)].compactMap({ $0 }) {
          if let until = asked[key], until > (wait?.until ?? .distantPast) {
            wait = (until, .retryAfter)
          }
        }
      }
      if let failure = failing[source.name], let pause = failureBackoff(failure.failures) {
        let until = Date(timeIntervalSince1970: failure.last + pause)
        if until > (wait?.until ?? .distantPast) {
          wait = (until, .failing(runs: failure.failures))
        }
      }
      return wait
    }
  }

  /// The waits now in force (failures only when the run backs off failing sources).
  func waits(failing: Bool = true) -> Waits {
    Waits(
      asked: FeedBackoff(store: cache).read(now: now()),
      failing: failing ? FeedFailures(store: cache).read() : [:])
  }

  /// The sources failing run after run, since when and why (``FeedFailures``).
  public func failures() -> [String: FeedFailures.Failure] {
    FeedFailures(store: cache).read()
  }

  /// Takes `source` off the record of failing sources (it moved: its next run asks it, not
  /// left alone for the failures of its old address).
  public func forgetFailures(of source: String) throws {
    try FeedFailures(store: cache).record(failed: [:], answered: [source], now: now())
  }

  /// How long a source that failed `failures` runs in a row is left alone after the last:
  /// none after one failure, then 2, 4, 8… minutes, at most 6 hours. It is never disabled.
  package static func failureBackoff(_ failures: Int) -> Double? {
    guard failures >= 2 else { return nil }
    return min(60 * pow(2, Double(min(failures - 1, 20))), 6 * 3_600)
  }
}
