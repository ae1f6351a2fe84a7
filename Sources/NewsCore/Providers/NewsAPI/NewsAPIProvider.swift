/// newsapi.org's top headlines: the default provider, the one that takes every filter.
public struct NewsAPIProvider: Provider {
  /// Creates the provider.
  public init() {}

  public var name: String { SourceName.newsAPI }
  public var layout: ArticleLayout { .standard }
  public var filters: Set<QueryFilter> { Set(QueryFilter.allCases) }

  public func missingRequirement(in configuration: Configuration) -> String? {
    configuration.newsAPIKey == nil ? "no NEWSAPI_KEY" : nil
  }

  public func heading(for query: TopHeadlinesQuery) -> String {
    "Top headlines" + (query.summary.isEmpty ? "" : " · " + query.summary)
  }

  public func storageKey(for query: TopHeadlinesQuery) -> String { query.storageKey }

  public func fetch(_ query: TopHeadlinesQuery, using context: ProviderContext) async throws
    -> ArticleList
  {
    try await NewsAPIClient(
      baseURL: context.configuration.newsAPIURL,
      apiKey: try context.configuration.requireNewsAPIKey(), transport: context.transport,
      now: context.now
    ).topHeadlines(query)
  }
}
