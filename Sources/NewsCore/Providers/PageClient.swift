import Foundation

/// A provider that is one GET of one URL decoded into a page: the articles API and BBC-style
/// headlines. Their answers differ only in how they decode.
public struct PageClient: Sendable {
  private let provider: String
  private let url: URL
  private let transport: HTTPTransport
  private let now: @Sendable () -> Date
  private let decode: @Sendable (Data, Date) throws -> ArticleList

  /// The articles API at `url`.
  public static func articles(
    url: URL, transport: HTTPTransport, now: @escaping @Sendable () -> Date
  ) -> PageClient {
    PageClient(
      provider: "articles", url: url, transport: transport, now: now,
      decode: { try ArticlesDecoder.decode($0, fetchedAt: $1) })
  }

  /// BBC-style headlines at `url`.
  public static func bbc(
    url: URL, transport: HTTPTransport, now: @escaping @Sendable () -> Date
  ) -> PageClient {
    PageClient(
      provider: "bbc", url: url, transport: transport, now: now,
      decode: { try BBCDecoder.decode($0, fetchedAt: $1) })
  }

  /// Fetches and decodes the page.
  ///
  /// - Throws: ``ProviderError`` for an error status or a body of the wrong shape, ``HTTPError``
  ///   when the server cannot be reached.
  public func fetch() async throws -> ArticleList {
    try decode(try await transport.body(of: url, provider: provider), now())
  }
}
