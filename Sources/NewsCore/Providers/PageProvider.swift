import Foundation

/// A provider that is one GET of one configured URL decoded into a page: the articles API
/// (`NEWS_ARTICLES_URL`, newest release first) and BBC-style headlines (`NEWS_BBC_URL`, in the
/// server's order). They differ only in the values below, so they are one type.
public struct PageProvider: Provider {
  public let name: String
  public let layout: ArticleLayout
  /// The list's heading.
  let title: String
  /// Where the page is.
  let url: @Sendable (Configuration) -> URL
  /// How its body becomes a page.
  let decode: @Sendable (Data, Date) throws(ProviderError) -> ArticleList

  /// The articles API: one list, newest release first.
  public static let articles = PageProvider(
    name: SourceName.articles, layout: .release, title: "Articles", url: { $0.articlesURL },
    decode: { body, date throws(ProviderError) in
      try ArticlesDecoder.decode(body, fetchedAt: date)
    })

  /// BBC-style headlines, in the server's order.
  public static let bbc = PageProvider(
    name: SourceName.bbc, layout: .dated, title: "BBC headlines", url: { $0.bbcURL },
    decode: { body, date throws(ProviderError) in try BBCDecoder.decode(body, fetchedAt: date) })

  public var filters: Set<QueryFilter> { [] }
  public func missingRequirement(in configuration: Configuration) -> String? { nil }
  public func heading(for query: TopHeadlinesQuery) -> String { title }
  public func storageKey(for query: TopHeadlinesQuery) -> String { name }

  /// Fetches and decodes the page.
  ///
  /// - Throws: ``ProviderError`` for an error status or a body of the wrong shape, ``HTTPError``
  ///   when the server cannot be reached.
  public func fetch(_ query: TopHeadlinesQuery, using context: ProviderContext) async throws
    -> ArticleList
  {
    let body = try await context.transport.body(of: url(context.configuration), provider: name)
    return try decode(body, context.now())
  }
}
