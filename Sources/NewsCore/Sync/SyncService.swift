import Foundation

/// What became of one source in a sync.
public enum SyncSourceStatus: String, Sendable, Equatable {
  /// Pulled.
  case ok
  /// Asked for and failed.
  case failed
  /// Not asked for: newsapi.org without a key.
  case skipped
}

/// One source's line in the sync report.
public struct SyncSourceReport: Sendable, Equatable {
  /// `newsapi`, `articles`, `bbc`, `feed-a`, …
  public var name: String
  /// Whether the source was pulled, failed or was skipped.
  public var status: SyncSourceStatus
  /// Whether the source was pulled.
  public var ok: Bool { status == .ok }
  /// Articles or items that were not stored before.
  public var new: Int
  /// Articles or items in the source's answer.
  public var total: Int
  /// Why it failed.
  public var error: String?
  /// HTTP attempts made (1 + retries).
  public var attempts: Int
  /// What the user should know (items of the answer left out, and why).
  public var warnings: [String] = []
}

/// What `news sync` did.
public struct SyncReport: Sendable {
  /// When it started.
  public var startedAt: Date
  /// When it finished.
  public var finishedAt: Date
  /// One report per source, in a fixed order.
  public var sources: [SyncSourceReport]
}

/// Pulls every source concurrently into the store, for cron: newsapi.org top headlines with the
/// default query (when a key is configured), the articles API, BBC headlines and every feed source.
public struct SyncService: Sendable {
  private let configuration: Configuration
  private let transport: HTTPTransport
  private let articles: ArticleStore
  private let feed: FeedService
  private let feedSources: [FeedSource]
  private let now: @Sendable () -> Date
  private let deadline: Deadline

  /// Creates the service; each source gets `deadline` in all (the feed's get theirs from `feed`).
  public init(
    configuration: Configuration, transport: HTTPTransport, articles: ArticleStore,
    feed: FeedService, feedSources: [FeedSource], now: @escaping @Sendable () -> Date = Date.init,
    deadline: Deadline = Deadline(.seconds(30), variable: "NEWS_SOURCE_DEADLINE")
  ) {
    self.configuration = configuration
    self.transport = transport
    self.articles = articles
    self.feed = feed
    self.feedSources = feedSources
    self.now = now
    self.deadline = deadline
  }

  /// Runs the sync while holding the sync lock (`sync.lock` in the data directory).
  ///
  /// - Parameter wait: wait for another sync to finish; otherwise fail at once with
  ///   ``StoreError/locked(path:)`` (exit 75).
  public func run(wait: Bool) async throws -> SyncReport {
    let directory = configuration.paths.dataDirectory
    try AtomicFile.createDirectory(directory)
    return try await FileLock.withLock(directory.appendingPathComponent("sync.lock"), wait: wait) {
      await pull()
    }
  }

  private func pull() async -> SyncReport {
    let startedAt = now()
    var providers: [(String, @Sendable (HTTPTransport) async throws -> HeadlinesPage, String)] = []
    if let key = configuration.newsAPIKey {
      let query = TopHeadlinesQuery(defaults: configuration.queryDefaults)
      let client = { @Sendable (transport: HTTPTransport) in
        try await NewsAPIClient(
          baseURL: configuration.newsAPIURL, apiKey: key, transport: transport, now: now
        ).topHeadlines(query)
      }
      providers.append(("newsapi", client, query.storageKey))
    }
    providers.append(
      (
        "articles",
        {
          try await PageClient.articles(url: configuration.articlesURL, transport: $0, now: now)
            .fetch()
        },
        "articles"
      ))
    providers.append(
      (
        "bbc",
        { try await PageClient.bbc(url: configuration.bbcURL, transport: $0, now: now).fetch() },
        "bbc"
      ))

    let feedSources = self.feedSources
    let firstFeedIndex = providers.count
    let reports = await withTaskGroup(of: [(Int, SyncSourceReport)].self) { group in
      for (index, (name, fetch, key)) in zip(providers.indices, providers) {
        group.addTask { [self] in
          [(index, await pull(name, key: key, fetch: fetch))]
        }
      }
      group.addTask { [self] in
        await feed.fetch(feedSources, refresh: true).enumerated().map { offset, report in
          (
            firstFeedIndex + offset,
            SyncSourceReport(
              name: "feed-" + report.name, status: report.status == .fresh ? .ok : .failed,
              new: report.newItems, total: report.items.count,
              error: report.status == .fresh ? nil : report.error, attempts: report.attempts)
          )
        }
      }
      var all: [(Int, SyncSourceReport)] = []
      for await part in group { all += part }
      return all.sorted { $0.0 < $1.0 }.map(\.1)
    }
    if configuration.newsAPIKey == nil {
      // Said, not left out silently: without a key newsapi.org cannot be asked.
      let skipped = SyncSourceReport(
        name: "newsapi", status: .skipped, new: 0, total: 0, error: "no NEWSAPI_KEY", attempts: 0)
      return SyncReport(startedAt: startedAt, finishedAt: now(), sources: [skipped] + reports)
    }
    return SyncReport(startedAt: startedAt, finishedAt: now(), sources: reports)
  }

  private func pull(
    _ name: String, key: String,
    fetch: @escaping @Sendable (HTTPTransport) async throws -> HeadlinesPage
  ) async -> SyncSourceReport {
    let counter = AttemptCounter()
    var report = SyncSourceReport(
      name: name, status: .failed, new: 0, total: 0, error: nil, attempts: 0)
    do {
      let transport = counter.counting(self.transport)
      let page = try await deadline.run { try await fetch(transport) }
      report.total = page.articles.count
      report.new = try articles.save(page, key: key, makeLast: false)
      report.warnings = page.warnings
      report.status = .ok
    } catch {
      report.error = (error as? any NewsError)?.message ?? String(describing: error)
    }
    report.attempts = counter.value
    return report
  }
}
