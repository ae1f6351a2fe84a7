import NewsCore

/// What Tab cycles through: a provider's headlines, or one feed source.
enum BrowseChannel {
  case provider(any Provider)
  case feed(FeedSource)

  var name: String {
    switch self {
    case .provider(let provider): provider.name
    case .feed(let source): source.name
    }
  }
}
