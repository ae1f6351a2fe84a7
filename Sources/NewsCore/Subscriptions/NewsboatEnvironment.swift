/// newsboat settings whose counterpart here is an environment variable. `news import newsboat`
/// writes `config.json` only, so such a line is not carried: its outcome gives the line to add to
/// the configuration directory's `.env` instead of "no such setting".
enum NewsboatEnvironment {
  /// The line that says how to carry `words` (a `config` line: a directive and its value), or
  /// `nil` when the directive has no counterpart among the environment variables.
  static func counterpart(_ words: [String]) -> String? {
    guard words.count == 2, !words[1].isEmpty else { return nil }
    let value = words[1]
    let assignment: String
    switch words[0] {
    case "download-path":
      // newsboat's `%n` (the feed's name) is a folder for each source, which
      // NEWS_DOWNLOAD_NAME's default (`{source}/…`) makes already; the directory is what comes
      // before the first placeholder.
      let fixed = value.split(separator: "/", omittingEmptySubsequences: false)
        .prefix { !$0.contains("%") }.joined(separator: "/")
      guard !fixed.isEmpty else { return nil }
      assignment = "NEWS_DOWNLOAD_DIR=" + fixed
    case "player": assignment = "NEWS_PLAYER=" + value
    case "max-downloads": assignment = "NEWS_DOWNLOAD_CONCURRENCY=" + value
    case "download-timeout": assignment = "NEWS_TIMEOUT=" + value
    // newsboat counts from an article's date, news from when its feed last listed it.
    case "keep-articles-days": assignment = "NEWS_RETENTION_DAYS=" + value
    case "proxy":
      let address = value.contains("://") ? value : "http://" + value
      assignment = "https_proxy=\(address) and http_proxy=\(address)"
    default: return nil
    }
    return "an environment variable here: \(assignment) in the configuration directory's .env "
      + "(docs/configuration.md)"
  }
}
