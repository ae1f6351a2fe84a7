import NewsCore

/// A list of browse's home screen: a provider's headlines, one feed source, or one that gathers
/// what the others hold (every unread item, a tag's sources, the bookmarks).
enum BrowseChannel {
  case provider(any Provider)
  case feed(FeedSource)
  /// Every unread item the other lists hold in the store.
  case allUnread
  /// The bookmarked articles.
  case bookmarks
  /// Every item of the sources filed under a tag.
  case tag(String)

  var name: String {
    switch self {
    case .provider(let provider): provider.name
    case .feed(let source): source.name
    case .allUnread: "All unread"
    case .bookmarks: "Bookmarks"
    case .tag(let tag): "#" + tag
    }
  }

  /// Whether it gathers items of the other lists (answered from the store; `n` and `R` pass it
  /// by, so that each item is walked and fetched once).
  var gathers: Bool {
    switch self {
    case .allUnread, .bookmarks, .tag: true
    case .provider, .feed: false
    }
  }
}
