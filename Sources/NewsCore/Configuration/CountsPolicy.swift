/// Which articles `news show` and the reader ask the info API for likes and comments
/// (`NEWS_COUNTS`): only newsapi.org's by default (the only ones it can know), every article
/// with a link, or none.
public enum CountsPolicy: String, Sendable, CaseIterable {
  /// Every article with a link.
  case all
  /// newsapi.org's articles only (the default).
  case newsapi
  /// None: no request is made.
  case off

  /// Whether an article of `provider` is asked for.
  public func applies(to provider: String) -> Bool {
    switch self {
    case .all: true
    case .newsapi: provider == SourceName.newsAPI
    case .off: false
    }
  }
}
