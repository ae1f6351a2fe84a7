import NewsCore

/// NewsCore's advice in the command line's words: the one place that names a command for a
/// message (NewsCore names the step, ``Advice``; a test keeps command names out of NewsCore).
extension Advice {
  /// The step, naming the command (and flag) that takes it.
  var words: String {
    switch self {
    case .repairStore(let does): "'news doctor --repair'" + (does.map { " " + $0 } ?? "")
    case .examineStore: "see 'news doctor'"
    case .fetchHeadlinesOnline: "run 'news headlines' online, or 'news sync', first"
    case .listArticlesFirst:
      "list some first: news feed, news search, news bookmarks; or pass an id or URL"
    case .fetchFullText(let id): "run 'news show \(id) --full' online first"
    case .refreshNow: "'news feed --refresh' asks now"
    case .sync: "news sync brings it"
    case .listAccounts: "news accounts lists them"
    case .removeAccount(let name): "news accounts remove \(name) first"
    case .addAccountAgain: "news accounts add it again with the right one"
    case .listSources: "news sources lists them"
    case .listIgnoreRules: "news ignore list numbers them"
    case .subscribe(let url): "news sources add \(url) subscribes to it"
    case .importList(let url): "news sources import \(url) subscribes to them"
    }
  }

  /// `message` with the advice after it, in parentheses.
  func appended(to message: String) -> String { "\(message) (\(words))" }
}

extension Optional where Wrapped == Advice {
  /// `message` with the advice after it, if there is one.
  func appended(to message: String) -> String { map { $0.appended(to: message) } ?? message }
}

extension NewsError {
  /// The message with its advice: what a user reads.
  var sentence: String { advice.appended(to: message) }
}

extension Notice {
  /// The warning with its advice.
  var sentence: String { advice.appended(to: text) }
}

extension StoreDamage {
  /// The warning for the damaged file: what the run goes on without, and what mends it.
  var sentence: String { advice.appended(to: "\(path) does not open, so \(leftOut)") }
}

extension FeedSourceReport {
  /// Why the source failed, with what to do about it.
  var errorSentence: String? { error.map { advice.appended(to: $0) } }
}

extension StoreReport.File {
  /// Why the file does not open, with what mends it.
  var errorSentence: String? { error.map { advice.appended(to: $0) } }
}
