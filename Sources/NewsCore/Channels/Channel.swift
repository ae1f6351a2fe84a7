/// A list a reader walks: a provider's headlines, one feed source, or one that gathers what the
/// others hold (every unread item, a tag's sources, the bookmarks).
public enum Channel: Sendable {
  case provider(any Provider)
  case feed(FeedSource)
  /// Every unread item the other lists hold in the store.
  case allUnread
  /// The bookmarked articles.
  case bookmarks
  /// Every item of the sources filed under a tag.
  case tag(String)

  /// Its name on the home screen.
  public var name: String {
    switch self {
    case .provider(let provider): provider.name
    case .feed(let source): source.name
    case .allUnread: "All unread"
    case .bookmarks: "Bookmarks"
    case .tag(let tag): "#" + tag
    }
  }

  /// What it is called above its items (a provider's list is named by its query once asked).
  var heading: ChannelHeading {
    switch self {
    case .provider(let provider): .provider(provider.name)
    case .feed(let source): .source(source.name)
    case .allUnread: .allUnread
    case .bookmarks: .bookmarks
    case .tag(let tag): .tag(tag)
    }
  }

  /// Whether it gathers items of the other lists (answered from the store: there is nothing
  /// to fetch for it).
  public var gathers: Bool {
    switch self {
    case .allUnread, .bookmarks, .tag: true
    case .provider, .feed: false
    }
  }

  /// The tags it is filed under (a tag's list is filed under itself).
  public var tags: [String] {
    switch self {
    case .feed(let source): source.tags
    case .tag(let tag): [tag]
    default: []
    }
  }
}
