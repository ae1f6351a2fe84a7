/// BBC-style headlines (`NEWS_BBC_URL`), in the server's order.
public struct BBCProvider: Provider {
  /// Creates the provider.
  public init() {}

  public var name: String { "bbc" }
  public var layout: ArticleLayout { .dated }
  public var filters: Set<QueryFilter> { [] }
  public func missingRequirement(in configuration: Configuration) -> String? { nil }
  public func heading(for query: TopHeadlinesQuery) -> String { "BBC headlines" }
  public func storageKey(for query: TopHeadlinesQuery) -> String { name }

  public func fetch(_ query: TopHeadlinesQuery, using context: ProviderContext) async throws
    -> ArticleList
  {
    try await PageClient.bbc(
      url: context.configuration.bbcURL, transport: context.transport, now: context.now
    ).fetch()
  }
}
