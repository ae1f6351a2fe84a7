import Foundation

/// Pulls every source concurrently into the store, for cron: every provider of the registry
/// with its default query (one whose requirement is missing, newsapi.org without a key, is
/// reported skipped), every feed source and every account on the reader's servers.
public struct SyncService: Sendable {
  /// The accounts, synced beside the sources (``AccountService/sync(_:)``).
  public var accounts: AccountService?
  /// Whether the feed sources' new items are kept in the report (a `newItem` hook runs for
  /// them); without one, no item is held once stored.
  public var keepNewItems = true
  /// Whether every feed source is asked (`--refresh`); otherwise only those due (``NextFetch``).
  public var refresh = false
  private let configuration: Configuration
  private let providers: ProviderRegistry
  private let context: ProviderContext
  private let articles: ArticleStore
  private let feed: FeedService
  private let feedSources: [FeedSource]
  private let deadline: Deadline

  /// Creates the service; each source gets `deadline` in all (the feed's get theirs from `feed`).
  public init(
    configuration: Configuration, providers: ProviderRegistry, context: ProviderContext,
    articles: ArticleStore, feed: FeedService, feedSources: [FeedSource],
    deadline: Deadline
  ) {
    self.configuration = configuration
    self.providers = providers
    self.context = context
    self.articles = articles
    self.feed = feed
    self.feedSources = feedSources
    self.deadline = deadline
  }

  /// Runs the sync while holding the sync lock (`sync.lock` in the data directory).
  ///
  /// - Parameter wait: wait for another sync to finish; otherwise fail at once with
  ///   ``StoreError/locked(path:)`` (exit 75).
  ///   - only: sync these accounts and nothing else (`--account`).
  public func run(wait: Bool, only accountNames: [String]? = nil) async throws -> SyncReport {
    let directory = configuration.paths.dataDirectory
    try AtomicFile.createDirectory(directory)
    for name in accountNames ?? [] {
      guard let accounts else { throw AccountError.unknown(name) }
      _ = try accounts.account(name)
    }
    return try await FileLock.withLock(directory.appendingPathComponent("sync.lock"), wait: wait) {
      await pull(accountNames)
    }
  }

  private func pull(_ accountNames: [String]?) async -> SyncReport {
    let startedAt = context.now()
    let query = TopHeadlinesQuery(defaults: configuration.queryDefaults)
    let providers = accountNames == nil ? self.providers.providers : []
    let feedSources = accountNames == nil ? self.feedSources : []
    let keepNewItems = self.keepNewItems
    let freshness: FeedRun.Options.Freshness = refresh ? .refresh : .whenExpired
    // `--refresh` asks every source, one failing run after run too (as `feed --refresh`).
    var feed = self.feed
    feed.backsOffFailing = !refresh
    let accounts = self.accounts
    // Each part: its sources' reports, numbered for their order, and the run's own warnings.
    typealias Part = (reports: [(Int, SyncSourceReport)], warnings: [String])
    let (reports, warnings) = await withTaskGroup(of: Part.self) { group in
      if let accounts {
        group.addTask {
          (await accounts.sync(accountNames).enumerated().map { (1_000_000 + $0, $1) }, [])
        }
      }
      for (index, provider) in providers.enumerated() {
        group.addTask { [self] in ([(index, await pull(provider, query: query))], []) }
      }
      group.addTask { [feed] in
        // Items are dropped as each source is stored (a sync shows none): only those a newItem
        // hook runs for are kept, and only when there is one.
        let run = await feed.run(
          feedSources,
          FeedRun.Options(freshness: freshness, items: .counted, newItems: keepNewItems))
        let reports = run.reports.enumerated().map { offset, report in
          // A source whose items were fetched but not stored failed: sync is for the store. One
          // not due is answered by its cache, stored already.
          let notDue = report.status == .cached
          let stored = (report.status == .fresh || notDue) && report.notKept == nil
          var synced = SyncSourceReport(
            name: report.name, status: stored ? .ok : .failed,
            new: stored ? report.newItems : 0, total: report.itemCount,
            error: stored ? nil : report.notKept ?? report.error, attempts: report.attempts)
          synced.warnings = report.warnings
          if notDue {
            synced.asked = false
            synced.next = report.next
          }
          // Failing run after run and left alone: not asked either (`--quiet` says nothing new).
          if report.leftAlone { (synced.asked, synced.next) = (false, report.next) }
          if stored { synced.newItems = report.newItemList }
          return (providers.count + offset, synced)
        }
        return (reports, run.warnings)
      }
      var all: [(Int, SyncSourceReport)] = []
      var warnings: [String] = []
      for await part in group {
        all += part.reports
        warnings += part.warnings
      }
      return (all.sorted { $0.0 < $1.0 }.map(\.1), warnings)
    }
    return SyncReport(
      startedAt: startedAt, finishedAt: context.now(), sources: reports, warnings: warnings)
  }

  private func pull(_ provider: any Provider, query: TopHeadlinesQuery) async -> SyncSourceReport {
    var report = SyncSourceReport(
      name: provider.name, status: .failed, new: 0, total: 0, error: nil, attempts: 0)
    if let missing = provider.missingRequirement(in: configuration) {
      // Said, not left out silently.
      report.status = .skipped
      report.error = missing
      return report
    }
    let counter = AttemptCounter()
    var context = self.context
    context.transport = counter.counting(context.transport)
    do {
      let list = try await deadline.run { [context] in
        try await provider.fetch(query, using: context)
      }
      report.total = list.articles.count
      let new = try articles.save(
        list, key: provider.storageKey(for: query), makeLast: false, countingNew: true)
      report.new = new.count
      // What came for the first time: what a newItem hook runs for, as for feeds and accounts.
      if keepNewItems { report.newItems = new.map(FeedItem.init(article:)) }
      report.warnings = list.warnings
      report.status = .ok
    } catch {
      report.error = (error as? any NewsError)?.message ?? String(describing: error)
    }
    report.attempts = counter.value
    return report
  }
}
