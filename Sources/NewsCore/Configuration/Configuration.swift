import Foundation

/// Everything the program can be told from outside, read once at start-up.
///
/// Values come from, strongest first: the process environment, a `.env` file in the current
/// directory, then built-in defaults. Empty values count as unset. A value that is set but unusable
/// throws a ``ConfigurationError`` that names the variable; nothing is silently ignored.
public struct Configuration: Sendable {
  /// The newsapi.org key, if one was given (`NEWSAPI_KEY`, or the file named by `NEWSAPI_KEY_FILE`).
  public var newsAPIKey: String?
  /// `NEWSAPI_URL`.
  public var newsAPIURL: URL
  /// `NEWS_INFO_URL`: likes and comments.
  public var infoURL: URL
  /// `NEWS_BBC_URL`: BBC-style headlines.
  public var bbcURL: URL
  /// `NEWS_ANALYTICS_URL`.
  public var analyticsURL: URL
  /// `NEWS_ARTICLES_URL`.
  public var articlesURL: URL
  /// `NEWS_FEED_A_URL`, `NEWS_FEED_B_URL`, `NEWS_FEED_C_URL`, keyed by lower-case source name.
  public var feedURLs: [String: URL]
  /// Where files live (`NEWS_HOME` or the XDG directories).
  public var paths: Paths
  /// `NEWS_RETRY_DELAY`: the pause between two attempts of a request.
  public var retryDelay: Duration
  /// `NEWS_TIMEOUT`: the longest a request may take.
  public var timeout: Duration
  /// `false` when `DO_NOT_TRACK=1` or `NEWS_ANALYTICS=off`.
  public var analyticsEnabled: Bool
  /// `true` when `NO_COLOR` is set to anything.
  public var noColor: Bool
  /// `COLUMNS`: the width to wrap text to, when set.
  public var columns: Int?
  /// `NEWS_STORE_KEY`: the store key as base64 (checked to be 32 bytes), when set.
  public var storeKey: String?
  /// `NEWS_RETENTION_DAYS` and `NEWS_RETENTION_MAX`.
  public var retention: RetentionPolicy
  /// `NEWS_COUNTRY`, `NEWS_CATEGORY`, `NEWS_LANGUAGE`: the newsapi.org query's defaults.
  public var queryDefaults: QueryDefaults
  /// `NEWS_COUNTS_DEADLINE`: how long `show` waits for likes and comments in all.
  public var countsDeadline: Duration
  /// Which articles are asked for likes and comments (`NEWS_COUNTS`: `newsapi`, `all`, `off`).
  public var counts: CountsPolicy = .newsapi
  /// The order of browse's lists: newest first (the default), or as each source lists them.
  public var newestFirst = true
  /// `NEWS_SOURCE_DEADLINE`: how long `feed` and `sync` give one source in all, retries included.
  public var sourceDeadline: Duration
  /// How long one run of a hook may take (`NEWS_HOOK_TIMEOUT`, 30 s).
  public var hookTimeout: Duration = .seconds(30)
  /// How long a source without its own `ttl` is kept between fetches: its posting rate within
  /// `NEWS_REFRESH_MIN` and `NEWS_REFRESH_MAX` (``RefreshBounds``).
  public var refreshBounds = RefreshBounds()
  /// `NEWS_FULLTEXT_CONCURRENCY`: article pages fetched at once for full text (4).
  public var fullTextConcurrency = 4
  /// `NEWS_PLAYER`: the command `news play` hands an episode to (environment or `.env`).
  public var player: String?
  /// `NEWS_DOWNLOAD_DIR`, `NEWS_DOWNLOAD_NAME`, `NEWS_DOWNLOAD_CONCURRENCY`, `NEWS_DOWNLOAD_MAX`.
  public var downloads: DownloadSettings
  /// `NEWS_FEED_<NAME>_TTL`, keyed by `<NAME>` (upper case, `_` for `-`).
  public var feedTTLs: [String: Duration]
  /// `NEWS_CONCURRENCY`: requests in flight at once, in all.
  public var concurrency: Int
  /// `NEWS_HOST_CONCURRENCY`: requests in flight at once to one host.
  public var hostConcurrency: Int
  /// Where `config.json` is (or would be): `NEWS_CONFIG`, else the config directory's. Decoding it
  /// is not the configuration's job: ``FeedConfigFile`` does, for ``NewsServices``.
  public var configFilePath: String
  /// Whether `NEWS_CONFIG` named the file (then it must exist).
  public var configFileIsExplicit: Bool
  /// The `.env` files looked at, in order (``load(environment:currentDirectory:)``), for
  /// messages that say where a setting was looked for.
  public var dotEnvPlaces: [String] = []
  /// The process environment as given: what the commands of `exec:` and `filter:` sources get
  /// of it is ``ChildEnvironment/forHooks(_:passing:)``'s to say, as for hooks.
  public var processEnvironment: [String: String] = [:]

  /// Built-in default endpoints.
  public enum Defaults {
    /// newsapi.org.
    public static let newsAPIURL = "https://newsapi.org"
    /// The likes and comments service.
    public static let infoURL = "https://cn-news-info-api.herokuapp.com"
    /// BBC-style headlines.
    public static let bbcURL =
      "https://raw.githubusercontent.com/bbc/news-apps-ios-coding-challenge/master/headlines.json"
    /// The analytics endpoint.
    public static let analyticsURL =
      "https://raw.githubusercontent.com/bbc/news-apps-ios-coding-challenge/master/analytics"
    /// The articles API.
    public static let articlesURL = "https://run.mocky.io/v3/de42e6d9-2d03-40e2-a426-8953c7c94fb8"
    /// Feed source `name` (`a`, `b`, `c`).
    public static func feedURL(_ name: String) -> String {
      "http://chegg-mobile-promotions.cheggcdn.com/ios/home-assignments/source_\(name).json"
    }
  }

  /// Reads the configuration.
  ///
  /// - Parameters:
  ///   - environment: the process environment.
  ///   - dotEnv: the text of `.env` in the current directory, if there is one.
  ///   - fallbackDotEnv: the text of `.env` in the configuration directory, if there is one:
  ///     what neither the environment nor the current directory's `.env` sets.
  ///   - userDirs: the text of the XDG `user-dirs.dirs`, if there is one (where the download
  ///     directory is).
  public init(
    environment: [String: String], dotEnv: String? = nil, fallbackDotEnv: String? = nil,
    userDirs: String? = nil
  ) throws(ConfigurationError) {
    var merged =
      try fallbackDotEnv.map { text throws(ConfigurationError) in try DotEnv.parse(text) } ?? [:]
    let local = try dotEnv.map { text throws(ConfigurationError) in try DotEnv.parse(text) } ?? [:]
    for (key, value) in local { merged[key] = value }
    for (key, value) in environment { merged[key] = value }
    merged = merged.filter { !$0.value.isEmpty }
    processEnvironment = environment

    newsAPIURL = try Self.url(merged, "NEWSAPI_URL", Defaults.newsAPIURL)
    infoURL = try Self.url(merged, "NEWS_INFO_URL", Defaults.infoURL)
    bbcURL = try Self.url(merged, "NEWS_BBC_URL", Defaults.bbcURL)
    analyticsURL = try Self.url(merged, "NEWS_ANALYTICS_URL", Defaults.analyticsURL)
    articlesURL = try Self.url(merged, "NEWS_ARTICLES_URL", Defaults.articlesURL)
    var feeds: [String: URL] = [:]
    for name in SourceName.builtInFeeds {
      feeds[name] = try Self.url(
        merged, "NEWS_FEED_\(name.uppercased())_URL", Defaults.feedURL(name))
    }
    feedURLs = feeds
    paths = try Paths.resolve(environment: merged)
    retryDelay = try Self.seconds(merged, "NEWS_RETRY_DELAY", default: 2, allowZero: true)
    timeout = try Self.seconds(merged, "NEWS_TIMEOUT", default: 15, allowZero: false)
    let doNotTrack = try Self.flag(merged, "DO_NOT_TRACK") ?? false
    let analytics = try Self.flag(merged, "NEWS_ANALYTICS") ?? true
    analyticsEnabled = !doNotTrack && analytics
    noColor = merged["NO_COLOR"] != nil
    newsAPIKey = try Self.apiKey(merged)
    columns = try Self.integer(merged, "COLUMNS", in: 1...100_000, expected: "a number of columns")
    storeKey = try Self.storeKey(merged)
    retention = try Self.retention(merged)
    queryDefaults = try QueryDefaults(merged)
    countsDeadline = try Self.seconds(merged, "NEWS_COUNTS_DEADLINE", default: 3, allowZero: false)
    if let text = merged["NEWS_COUNTS"] {
      guard let policy = CountsPolicy(rawValue: text.lowercased()) else {
        throw .invalidValue(variable: "NEWS_COUNTS", value: text, expected: "all, newsapi or off")
      }
      counts = policy
    }
    if let text = merged["NEWS_BROWSE_ORDER"], !text.isEmpty {
      guard ["newest", "source"].contains(text.lowercased()) else {
        throw .invalidValue(
          variable: "NEWS_BROWSE_ORDER", value: text, expected: "newest or source")
      }
      newestFirst = text.lowercased() == "newest"
    }
    sourceDeadline = try Self.seconds(merged, "NEWS_SOURCE_DEADLINE", default: 30, allowZero: false)
    hookTimeout = try Self.seconds(merged, "NEWS_HOOK_TIMEOUT", default: 30, allowZero: false)
    refreshBounds = try Self.refreshBounds(merged)
    player = merged["NEWS_PLAYER"]
    downloads = try DownloadSettings.resolve(merged, userDirs: userDirs)
    fullTextConcurrency =
      try Self.integer(
        merged, "NEWS_FULLTEXT_CONCURRENCY", in: 1...64, expected: "a number of pages") ?? 4
    feedTTLs = try Self.feedTTLs(merged)
    concurrency =
      try Self.integer(merged, "NEWS_CONCURRENCY", in: 1...256, expected: "a number of requests")
      ?? 96
    hostConcurrency =
      try Self.integer(
        merged, "NEWS_HOST_CONCURRENCY", in: 1...64, expected: "a number of requests") ?? 12
    let explicitConfig = merged["NEWS_CONFIG"]
    configFilePath =
      explicitConfig ?? paths.configDirectory.appendingPathComponent("config.json").path
    configFileIsExplicit = explicitConfig != nil
  }

  /// The time to live `NEWS_FEED_<NAME>_TTL` sets for the source `name`, if any.
  public func feedTTL(_ name: String) -> Duration? {
    // Asked for every source of every command: nothing to look up when no variable is set
    // (Foundation's replacing took a fifth of `sources` at 10,000 sources).
    guard !feedTTLs.isEmpty else { return nil }
    return feedTTLs[String(name.uppercased().map { $0 == "-" ? "_" : $0 })]
  }

  /// The newsapi.org key, or the error that tells the user how to provide one.
  public func requireNewsAPIKey() throws(ConfigurationError) -> String {
    guard let newsAPIKey else { throw .missingAPIKey(lookedIn: dotEnvPlaces) }
    return newsAPIKey
  }
}
