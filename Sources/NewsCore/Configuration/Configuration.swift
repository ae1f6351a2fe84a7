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
  /// The merged variables (environment over `.env`), for settings read by later stages.
  public var values: [String: String]

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

  /// Every variable the program reads, with its meaning, for the manual page.
  public static let variables: [(name: String, meaning: String)] = [
    ("NEWSAPI_KEY", "newsapi.org API key; needed by headlines and search --online."),
    ("NEWSAPI_KEY_FILE", "A file holding the key (it does not leak into child processes)."),
    ("NEWSAPI_URL", "newsapi.org base URL (default https://newsapi.org)."),
    ("NEWS_INFO_URL", "Likes and comments API base URL."),
    ("NEWS_BBC_URL", "BBC-style headlines JSON."),
    ("NEWS_ANALYTICS_URL", "Analytics endpoint."),
    ("NEWS_ARTICLES_URL", "Articles API."),
    ("NEWS_FEED_A_URL, NEWS_FEED_B_URL, NEWS_FEED_C_URL", "Feed sources A, B and C."),
    ("NEWS_FEED_<NAME>_TTL", "Time to live of a feed source, in seconds (A 300, B 1800, C 3600)."),
    ("NEWS_CONFIG", "The feed configuration file (default config.json in the config directory)."),
    ("NEWS_HOME", "One absolute directory for all files (default: the XDG directories)."),
    ("NEWS_RETRY_DELAY", "Seconds between retries, decimals allowed (default 2)."),
    ("NEWS_TIMEOUT", "Seconds a request may take (default 15)."),
    ("NEWS_STORE_KEY", "The store key as base64 (32 bytes), instead of the key file."),
    ("NEWS_RETENTION_DAYS", "Days an article is kept after it was last seen (default 30)."),
    ("NEWS_RETENTION_MAX", "Articles kept per provider (default 5000)."),
    (
      "DO_NOT_TRACK, NEWS_ANALYTICS", "DO_NOT_TRACK=1 or NEWS_ANALYTICS=off switches analytics off."
    ),
    ("NO_COLOR", "Set to anything: no colour or styles, even on a terminal."),
    ("COLUMNS", "Width to wrap text to (default: the terminal's, 80 in a pipe)."),
  ]

  /// Reads the configuration.
  ///
  /// - Parameters:
  ///   - environment: the process environment.
  ///   - dotEnv: the text of `.env` in the current directory, if there is one.
  public init(environment: [String: String], dotEnv: String? = nil) throws(ConfigurationError) {
    var merged = try dotEnv.map { text throws(ConfigurationError) in try DotEnv.parse(text) } ?? [:]
    for (key, value) in environment { merged[key] = value }
    merged = merged.filter { !$0.value.isEmpty }
    values = merged

    newsAPIURL = try Self.url(merged, "NEWSAPI_URL", Defaults.newsAPIURL)
    infoURL = try Self.url(merged, "NEWS_INFO_URL", Defaults.infoURL)
    bbcURL = try Self.url(merged, "NEWS_BBC_URL", Defaults.bbcURL)
    analyticsURL = try Self.url(merged, "NEWS_ANALYTICS_URL", Defaults.analyticsURL)
    articlesURL = try Self.url(merged, "NEWS_ARTICLES_URL", Defaults.articlesURL)
    var feeds: [String: URL] = [:]
    for name in ["a", "b", "c"] {
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
  }

  /// The newsapi.org key, or the error that tells the user how to provide one.
  public func requireNewsAPIKey() throws(ConfigurationError) -> String {
    guard let newsAPIKey else { throw .missingAPIKey }
    return newsAPIKey
  }

  /// Reads a decimal number within `range` from `variable`, for settings of later stages.
  ///
  /// - Parameter expected: what to tell the user when the value is unusable.
  public func number(
    _ variable: String, default fallback: Double, in range: ClosedRange<Double>, expected: String
  ) throws(ConfigurationError) -> Double {
    guard let text = values[variable] else { return fallback }
    guard let value = Double(text.trimmingCharacters(in: .whitespaces)), range.contains(value)
    else { throw .invalidValue(variable: variable, value: text, expected: expected) }
    return value
  }

  private static func apiKey(_ values: [String: String]) throws(ConfigurationError) -> String? {
    var key = values["NEWSAPI_KEY"]
    if key == nil, let path = values["NEWSAPI_KEY_FILE"] {
      do {
        key = try String(contentsOfFile: path, encoding: .utf8)
          .trimmingCharacters(in: .whitespacesAndNewlines)
      } catch {
        let reason =
          FileManager.default.fileExists(atPath: path) ? "not readable UTF-8 text" : "no such file"
        throw .unreadableFile(variable: "NEWSAPI_KEY_FILE", path: path, reason: reason)
      }
      if key?.isEmpty == true {
        throw .invalidSecret(variable: "NEWSAPI_KEY_FILE", reason: "the file \(path) is empty")
      }
    }
    if let key, key.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value >= 0x7F }) {
      // A key with spaces or control characters would corrupt the request header.
      throw .invalidSecret(
        variable: values["NEWSAPI_KEY"] != nil ? "NEWSAPI_KEY" : "NEWSAPI_KEY_FILE",
        reason: "the key contains spaces or characters that are not printable ASCII")
    }
    return key
  }

  private static func url(_ values: [String: String], _ variable: String, _ fallback: String)
    throws(ConfigurationError) -> URL
  {
    let text = values[variable] ?? fallback
    guard let components = URLComponents(string: text),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = components.host, !host.isEmpty,
      components.user == nil, components.password == nil,
      let url = components.url
    else {
      throw .invalidValue(
        variable: variable, value: text, expected: "an http:// or https:// URL with a host")
    }
    return url
  }

  private static func seconds(
    _ values: [String: String], _ variable: String, default fallback: Double, allowZero: Bool
  ) throws(ConfigurationError) -> Duration {
    guard let text = values[variable] else { return .milliseconds(Int(fallback * 1000)) }
    guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite,
      allowZero ? value >= 0 : value > 0, value <= 86_400
    else {
      throw .invalidValue(
        variable: variable, value: text,
        expected: allowZero
          ? "a number of seconds from 0 to 86400, e.g. 2 or 0.5"
          : "a number of seconds greater than 0, e.g. 15 or 2.5")
    }
    return .nanoseconds(Int64((value * 1e9).rounded()))
  }

  private static func flag(_ values: [String: String], _ variable: String)
    throws(ConfigurationError) -> Bool?
  {
    guard let text = values[variable] else { return nil }
    switch text.lowercased() {
    case "1", "true", "yes", "on": return true
    case "0", "false", "no", "off": return false
    default:
      throw .invalidValue(variable: variable, value: text, expected: "1/on/true or 0/off/false")
    }
  }
}
