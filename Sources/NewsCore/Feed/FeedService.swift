import Foundation

/// Fetches every source concurrently, each with its own cache and time to live, and returns only
/// when all have answered.
public struct FeedService: Sendable {
  private let transport: HTTPTransport
  private let cache: EncryptedStore
  private let articles: ArticleStore?
  private let now: @Sendable () -> Date
  private let deadline: Deadline

  /// Creates the service; `cache` is the encrypted store the sources' answers are kept in,
  /// `articles` where their items are kept as articles of their source, and each source gets
  /// `deadline` in all, retries included.
  public init(
    transport: HTTPTransport, cache: EncryptedStore, articles: ArticleStore?,
    now: @escaping @Sendable () -> Date, deadline: Deadline
  ) {
    self.transport = transport
    self.cache = cache
    self.articles = articles
    self.now = now
    self.deadline = deadline
  }

  /// What the cache knows of a source's last fetch.
  public struct LastFetch: Sendable {
    /// When it was last fetched; `nil` when it never was (or its URL changed since).
    public var fetchedAt: Date?
    /// Why its cache does not open, if it does not.
    public var error: String?
  }

  /// When `source` was last fetched, read from its cache without any request.
  public func lastFetch(_ source: FeedSource) -> LastFetch {
    let (cached, error) = cachedEntry(source)
    return LastFetch(fetchedAt: cached?.fetchedAt, error: error)
  }

  /// The source's cache entry (`nil` when there is none, or it was for another URL), or why it
  /// does not open: an unreadable entry is reported, never overwritten.
  private func cachedEntry(_ source: FeedSource) -> (entry: FeedCacheEntry?, error: String?) {
    do {
      let cached = try cache.read(FeedCacheEntry.self, name: "feed-" + source.name)
      return (cached?.url == source.url.absoluteString ? cached : nil, nil)
    } catch let error as any NewsError {
      return (nil, error.message)
    } catch {
      return (nil, String(describing: error))
    }
  }

  /// Every source's items and report, in the order of `sources`.
  ///
  /// - Parameters:
  ///   - refresh: ignore the time to live and fetch every source.
  ///   - offline: use the cache only, whatever its age.
  ///   - progress: called as each source finishes, with the number still running.
  public func fetch(
    _ sources: [FeedSource], refresh: Bool = false, offline: Bool = false,
    progress: (@Sendable (Int) -> Void)? = nil
  ) async -> [FeedSourceReport] {
    await withTaskGroup(of: (Int, FeedSourceReport).self) { group in
      for (index, source) in sources.enumerated() {
        group.addTask { (index, await fetch(source, refresh: refresh, offline: offline)) }
      }
      var reports = [FeedSourceReport?](repeating: nil, count: sources.count)
      var remaining = sources.count
      for await (index, report) in group {
        reports[index] = report
        remaining -= 1
        progress?(remaining)
      }
      return reports.compactMap { $0 }
    }
  }

  private func fetch(_ source: FeedSource, refresh: Bool, offline: Bool) async -> FeedSourceReport {
    let name = "feed-" + source.name
    let (cached, cacheError) = cachedEntry(source)
    var report = FeedSourceReport(
      name: source.name, url: source.url, status: .failed, fetchedAt: cached?.fetchedAt,
      expiresAt: cached.map { $0.fetchedAt.addingTimeInterval(source.ttl.seconds) },
      error: cacheError, items: cached?.items ?? [], attempts: 0, newItems: 0)
    let current = now()
    if let cached,
      offline || (!refresh && current < cached.fetchedAt.addingTimeInterval(source.ttl.seconds))
    {
      report.status = .cached
      if cached.kept != true {
        var entry = cached
        report.notKept = keep(&entry, source: source)
        if report.notKept == nil { try? cache.write(entry, name: name) }
      }
      return report
    }
    if let cacheError {
      // A damaged cache entry is never replaced: the source fails until it is looked at.
      report.error = "source \(source.name): \(cacheError)"
      return report
    }
    if offline {
      report.error = "source \(source.name): nothing cached (offline)"
      return report
    }
    let counter = AttemptCounter()
    let transport = counter.counting(self.transport)
    do {
      var headers: [String: String] = [:]
      if let etag = cached?.etag { headers["If-None-Match"] = etag }
      if let lastModified = cached?.lastModified { headers["If-Modified-Since"] = lastModified }
      let url = source.url
      let response = try await deadline.run { [headers] in
        try await transport.get(url, headers: headers)
      }
      var entry: FeedCacheEntry
      if response.status == 304, var revalidated = cached {
        revalidated.fetchedAt = now()
        entry = revalidated
      } else if (200..<300).contains(response.status) {
        let items = try source.adapter.items(from: response.body, source: source.name)
        entry = FeedCacheEntry(
          url: source.url.absoluteString, items: items, fetchedAt: now(),
          etag: response.headers["etag"], lastModified: response.headers["last-modified"])
      } else {
        throw FeedError.status(
          source: source.name, code: response.status, attempts: response.attempts)
      }
      report.notKept = keep(&entry, source: source)
      do {
        try cache.write(entry, name: name)
      } catch let error as any NewsError {
        report.error = "source \(source.name): not cached: " + error.message
      }
      let known = Set(cached?.items.map(\.id) ?? [])
      report.newItems = entry.items.filter { !known.contains($0.id) }.count
      report.items = entry.items
      report.fetchedAt = entry.fetchedAt
      report.expiresAt = entry.fetchedAt.addingTimeInterval(source.ttl.seconds)
      report.status = .fresh
    } catch {
      let message = (error as? any NewsError)?.message ?? String(describing: error)
      // Every message about a source names it.
      report.error =
        message.hasPrefix("source \(source.name) ") ? message : "source \(source.name): \(message)"
      report.status = cached == nil ? .failed : .stale
    }
    report.attempts = counter.value
    return report
  }

  /// Keeps the entry's items as articles of `source` (refreshing when they were last seen, so
  /// that retention keeps what the source still lists); returns why not, if they were not.
  private func keep(_ entry: inout FeedCacheEntry, source: FeedSource) -> String? {
    guard let articles else { return nil }
    do {
      try articles.keep(entry.items.map(\.article), provider: source.name)
      entry.kept = true
      return nil
    } catch {
      let message = (error as? any NewsError)?.message ?? String(describing: error)
      return "source \(source.name): its items were not stored: \(message)"
    }
  }
}
