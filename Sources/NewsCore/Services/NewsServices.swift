import FeedParsing
import Foundation
import Synchronization

/// What the commands ask: every NewsCore service, built from one configuration and one set of
/// dependencies. Stores are opened (and their key checked) here, never by the command line.
///
///     argv → command → NewsServices → ListService / FeedService / SyncService → transport, store
///          → renderer
public struct NewsServices: Sendable {
  /// The configuration, read once.
  public let configuration: Configuration
  /// `config.json`, decoded once (``FeedConfigFile/load(_:)``); `nil` when there is none.
  public let configFile: FeedConfigFile?
  /// The outside world.
  public let dependencies: NewsDependencies
  /// The providers of `headlines`.
  public let providers: ProviderRegistry
  /// The key and stores this run opened: each once (``OpenedStores``).
  public let opened: OpenedStores
  /// The built-in and `config.json`'s sources, made once for these services: each source's URL
  /// is parsed to make it, and a command asks for the sources several times (at 10,000 sources,
  /// a tenth of `news sources --json`).
  private let configuredSources = ConfiguredSources()

  /// Creates the services; services sharing `opened` share the key and stores.
  public init(
    configuration: Configuration, configFile: FeedConfigFile? = nil,
    dependencies: NewsDependencies, providers: ProviderRegistry = .builtIn,
    opened: OpenedStores = OpenedStores()
  ) {
    self.configuration = configuration
    self.configFile = configFile
    self.dependencies = dependencies
    self.providers = providers
    self.opened = opened
  }

  /// The transport every client uses: retries, limits, timeout, observers.
  public func transport() -> HTTPTransport {
    HTTPTransport(
      client: dependencies.httpClient, retryPolicy: RetryPolicy(delay: configuration.retryDelay),
      timeout: configuration.timeout, timing: dependencies.timing,
      maximumConcurrentRequests: configuration.concurrency,
      maximumConcurrentRequestsPerHost: configuration.hostConcurrency,
      observer: dependencies.onRequest,
      onRetry: dependencies.onRetry)
  }

  /// What providers fetch with.
  public func providerContext() -> ProviderContext {
    ProviderContext(
      configuration: configuration, transport: transport(), now: dependencies.timing.now,
      timeZone: dependencies.timeZone)
  }

  /// The article store, its key loaded (made on first use) and checked against the store.
  public func articleStore() throws -> ArticleStore {
    let store = try encryptedStore(at: configuration.paths.dataDirectory)
    try store.verifyKey()
    var articles = ArticleStore(
      store: store, retention: configuration.retention, now: dependencies.timing.now)
    articles.providerOrder =
      providers.providers.map(\.name) + FeedRegistry.builtIn(configuration).map(\.name)
      + (configFile?.sources.map(\.name) ?? [])
    return articles
  }

  /// The accounts on the reader's servers (`news accounts`, and their part of `news sync`).
  public func accounts() throws -> AccountService {
    AccountService(
      articles: try articleStore(), transport: transport(), deadline: accountDeadline(),
      now: dependencies.timing.now)
  }

  /// What one account's sync gets in all: `NEWS_SOURCE_DEADLINE` times four (a first sync reads
  /// every item of every feed).
  public func accountDeadline() -> Deadline {
    Deadline(
      configuration.sourceDeadline * 4, variable: "NEWS_SOURCE_DEADLINE × 4",
      timing: dependencies.timing)
  }

  /// Why the accounts' sources are left out, when the accounts cannot be read (a damaged
  /// `accounts` or account state file): a warning for the commands that list sources. `nil`
  /// without accounts, or when they read.
  public func accountSourcesWarning() -> Notice? {
    guard StoreDirectory(url: configuration.paths.dataDirectory).exists(StoreLayout.accounts)
    else { return nil }
    do {
      _ = try accounts().states()
      return nil
    } catch {
      return Notice(
        "your accounts' sources are left out: "
          + ((error as? any NewsError)?.message ?? "\(error)"),
        advice: .repairStore())
    }
  }

  /// The feeds of every account, as sources `<account>/<feed>` tagged with their folders, each
  /// at the feed's own address as its server gives it (without a user name or password), else
  /// at the account's; none (and no key read) without accounts.
  func accountSources() -> [FeedSource] {
    guard StoreDirectory(url: configuration.paths.dataDirectory).exists(StoreLayout.accounts),
      let states = try? accounts().states()
    else { return [] }
    return states.flatMap { account, state in
      state.feeds.map { feed in
        let address = feed.url.flatMap { URL.feed($0) }.map(\.withoutCredentials)
        var source = FeedSource(
          name: feed.source, url: address ?? account.url, ttl: .zero,
          adapter: AccountFeedAdapter(isFeedAddress: address != nil))
        source.account = account.name
        source.title = Optional(TerminalSanitizer.clean(feed.title)).nonEmpty
        source.site = feed.site.flatMap { URL.web($0) }.map(\.withoutCredentials)
        // A feed subscribed since the last sync has not been synced yet.
        source.syncedAt = feed.awaitsSync == true ? nil : state.lastSyncAt
        source.tags = feed.folders.map { AccountState.slug($0, fallback: "folder") }
        return source
      }
    }
  }

  /// Checks the key against both stores before a command that changes the configuration
  /// (`sources add|remove|set|import`, `ignore add|remove`): with a wrong key, or none where a
  /// store was written with one, nothing is written or fetched. With no key and no store yet
  /// there is nothing to check, and nothing is made.
  ///
  /// - Throws: ``StoreError/wrongKey(path:)`` or ``StoreError/missingKey(path:)`` (exit 74).
  public func checkKey() throws {
    guard try StoreKey.existing(configuration: configuration) != nil else {
      // No key, and a store written with one: a new key would not open it.
      if let written = writtenStore() { throw StoreError.missingKey(path: written) }
      return
    }
    for directory in [configuration.paths.dataDirectory, configuration.paths.cacheDirectory] {
      try encryptedStore(at: directory).verifyKey()
    }
  }

  /// Each feed source's tags, lower-case, by name (an account's feeds: their folders).
  func sourceTags() -> [String: Set<String>] {
    var tags: [String: Set<String>] = [:]
    for source in FeedRegistry.sources(configuration, file: configFile) + accountSources()
    where !source.tags.isEmpty {
      tags[source.name] = Set(source.tags.map { $0.lowercased() })
    }
    return tags
  }

  /// The store of caches (the feed), in the cache directory, its key checked.
  public func cacheStore() throws -> EncryptedStore {
    let store = try encryptedStore(at: configuration.paths.cacheDirectory)
    try store.verifyKey()
    return store
  }

  /// Lists: headlines, searches, bookmarks.
  public func lists() throws -> ListService {
    let store = try articleStore()
    var service = ListService(
      store: store, context: providerContext(), ignoreRules: configFile?.ignore ?? [])
    if store.store.exists(StoreLayout.accounts) {
      service.outbox = AccountOutbox(store: store.store)
    }
    let services = self
    service.sourceTags = { services.sourceTags() }
    return service
  }

  /// The feed's sources: built-in, `config.json`'s, with their TTLs.
  public func feedSources() -> [FeedSource] {
    let configured = configuredSources.value {
      FeedRegistry.sources(configuration, file: configFile)
    }
    let accounts = accountSources()
    // The configured sources as they are without accounts: joining copied 10,000 sources at
    // every call.
    return accounts.isEmpty ? configured : configured + accounts
  }

  /// ``feedSources()``, those whose configuration names no title or site given the ones their
  /// last answer said (read from the cache, no request): what `sources export` and `news serve`
  /// show. A cache that cannot be read leaves them as they are.
  public func describedFeedSources() -> [FeedSource] {
    var sources = feedSources()
    let lacking = sources.indices.filter {
      (sources[$0].title == nil || sources[$0].site == nil) && sources[$0].search == nil
        && sources[$0].account == nil
    }
    guard !lacking.isEmpty else { return sources }
    let feed: FeedService
    do {
      feed = try self.feed()
    } catch {
      return sources
    }
    let lasts = feed.lastFetches(lacking.map { sources[$0] })
    for (index, last) in zip(lacking, lasts) { sources[index] = sources[index].describedBy(last) }
    return sources
  }

  /// The feed, each source within `NEWS_SOURCE_DEADLINE`.
  public func feed() throws -> FeedService {
    var service = FeedService(
      transport: transport(), cache: try cacheStore(), articles: try articleStore(),
      now: dependencies.timing.now, timeZone: dependencies.timeZone,
      deadline: sourceDeadline())
    service.refreshBounds = configuration.refreshBounds
    // One pass, each source's fields read in place: three passes copied every source thrice.
    let sources = feedSources()
    var (fullText, search, command) = (false, false, false)
    for index in sources.indices {
      fullText = fullText || sources[index].fullText
      search = search || sources[index].search != nil
      command = command || sources[index].command != nil
    }
    if fullText { service.fullText = try self.fullText() }
    if search { service.sourceTags = sourceTags() }
    if command {
      service.commands = SourceCommandRunner(
        environment: configuration.processEnvironment,
        deadline: Deadline(
          configuration.hookTimeout, variable: "NEWS_HOOK_TIMEOUT",
          timing: dependencies.timing),
        passing: configFile?.hookEnvironment ?? [])
    }
    return service
  }

  /// Full texts: each article's page fetched, its article extracted and kept.
  public func fullText() throws -> FullTextService {
    var rules: [String: ExtractionRules] = [:]
    for source in feedSources() { rules[source.name] = source.extract }
    return FullTextService(
      transport: transport(), deadline: sourceDeadline(), store: try articleStore(),
      now: dependencies.timing.now, rules: rules,
      concurrency: configuration.fullTextConcurrency)
  }

  /// Downloads of enclosures (`news download`, browse's `d`).
  public func downloads() throws -> DownloadService {
    DownloadService(
      transport: transport(), store: try articleStore(), settings: configuration.downloads,
      retryPolicy: RetryPolicy(delay: configuration.retryDelay), timing: dependencies.timing)
  }

  /// Whether the feed source `name` shows full text by default (`"fullText": true`).
  public func showsFullText(source name: String) -> Bool {
    feedSources().contains { $0.name == name && $0.fullText }
  }

  /// Whether the provider `name` is enabled (`config.json` may turn one off, as a source).
  public func isEnabled(provider name: String) -> Bool {
    !(configFile?.disabledProviders.contains(name) ?? false)
  }

  /// The demo sources of the exercise news began as (the JSON feeds, the articles API and the
  /// BBC-style headlines) that are on: asked by every feed and sync until turned off.
  public func demoSourcesOn() -> [String] {
    let sources = feedSources()
    return SourceName.builtInFeeds.filter { name in
      sources.contains { $0.name == name && $0.enabled }
    } + [SourceName.articles, SourceName.bbc].filter { isEnabled(provider: $0) }
  }

  /// `news sync`: every enabled provider and feed source into the store.
  public func sync() throws -> SyncService {
    let enabled = ProviderRegistry(providers.providers.filter { isEnabled(provider: $0.name) })
    var service = SyncService(
      configuration: configuration, providers: enabled, context: providerContext(),
      articles: try articleStore(), feed: try feed(),
      feedSources: feedSources().filter { $0.enabled && $0.search == nil && $0.account == nil },
      deadline: sourceDeadline())
    if StoreDirectory(url: configuration.paths.dataDirectory).exists(StoreLayout.accounts) {
      service.accounts = try accounts()
    }
    return service
  }

  /// `news sources add/remove/import/export`.
  public func subscriptions() -> SubscriptionService {
    SubscriptionService(
      configuration: configuration, configFile: configFile, sources: feedSources(),
      reserved: Set(providers.providers.map(\.name)), transport: transport(),
      deadline: sourceDeadline(), randomBytes: dependencies.randomBytes,
      now: dependencies.timing.now)
  }

  /// Likes and comments.
  public func info() -> InfoClient {
    InfoClient(baseURL: configuration.infoURL, transport: transport())
  }

  /// `NEWS_COUNTS_DEADLINE`: what `show` gives the counts in all.
  public func countsDeadline() -> Deadline {
    Deadline(
      configuration.countsDeadline, variable: "NEWS_COUNTS_DEADLINE",
      timing: dependencies.timing)
  }

  /// `NEWS_SOURCE_DEADLINE`: what one source of `feed` or `sync` gets in all.
  public func sourceDeadline() -> Deadline {
    Deadline(
      configuration.sourceDeadline, variable: "NEWS_SOURCE_DEADLINE",
      timing: dependencies.timing)
  }

  /// The features owning files in the store, each saying what losing one costs.
  static let storeFileOwners: [StoreFiles] = [
    .accounts, .fullTexts, .downloads, .feedRecords, .served,
  ]

  /// What `news doctor` reports; creates nothing.
  public func doctor() throws -> StoreReport {
    try StoreReport.examine(configuration)
  }

  /// What `news doctor --repair` does (see ``StoreRepair``), one line an action. The key is
  /// checked first: with a wrong key every file would look damaged, and nothing is touched.
  public func repair() throws -> [String] {
    let report = try doctor()
    guard report.keySource != nil else { return [] }
    return try StoreRepair.run(
      articles: try articleStore(), cache: try? cacheStore(), report: report,
      owners: Self.storeFileOwners)
  }

  /// The key, loaded once a run (made on first use: never beside a store written with another,
  /// which a new key would not open).
  private func key() throws -> StoreKey {
    try opened.key {
      if try StoreKey.existing(configuration: configuration) == nil,
        let written = writtenStore()
      {
        throw StoreError.missingKey(path: written)
      }
      return try StoreKey.load(configuration: configuration, randomBytes: dependencies.randomBytes)
    }
  }

  /// The first store directory that holds files (written with a key), if one does.
  private func writtenStore() -> String? {
    [configuration.paths.dataDirectory, configuration.paths.cacheDirectory]
      .first { !StoreDirectory(url: $0).names().isEmpty }?.path
  }

  /// The run's store of `directory`: one per directory, so its key is verified once.
  private func encryptedStore(at directory: URL) throws -> EncryptedStore {
    let key = try key()
    let opened = self.opened
    return opened.store(at: directory) {
      var store = EncryptedStore(
        directory: directory, key: key, randomBytes: dependencies.randomBytes)
      store.onSideDamage = { opened.damaged($0) }
      return store
    }
  }
}

/// Sources made once and kept (``NewsServices/feedSources()``): what the services' immutable
/// configuration and `config.json` make never changes for them.
private final class ConfiguredSources: Sendable {
  private let made = Mutex<[FeedSource]?>(nil)

  /// The sources, made by `make` the first time.
  func value(_ make: () -> [FeedSource]) -> [FeedSource] {
    made.withLock { made in
      if let made { return made }
      let sources = make()
      made = sources
      return sources
    }
  }
}
