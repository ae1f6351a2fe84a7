/// The articles API (`NEWS_ARTICLES_URL`): one list, newest release first.
public struct ArticlesProvider: Provider {
  /// Creates the provider.
  public init() {}

  public var name: String { "articles" }
  public var layout: ArticleLayout { .release }
  public var filters: Set<QueryFilter> { [] }
  public func missingRequirement(in configuration: Configuration) -> String? { nil }
  public func heading(for query: TopHeadlinesQuery) -> String { "Articles" }
  public func storageKey(for query: TopHeadlinesQuery) -> String { name }

  public func fetch(_ query: TopHeadlinesQuery, using context: ProviderContext) async throws
    -> ArticleList
  {
    try await PageClient.articles(
      url: context.configuration.articlesURL, transport: context.transport, now: context.now
    ).fetch()
  }
}
