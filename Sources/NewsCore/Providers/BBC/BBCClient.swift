import Foundation

/// BBC-style headlines (`NEWS_BBC_URL`).
public struct BBCClient: Sendable {
  private let url: URL
  private let transport: HTTPTransport
  private let now: @Sendable () -> Date

  /// Creates a client for the JSON at `url`.
  public init(url: URL, transport: HTTPTransport, now: @escaping @Sendable () -> Date = Date.init) {
    self.url = url
    self.transport = transport
    self.now = now
  }

  /// The headlines in the order the server gives them.
  public func fetch() async throws -> HeadlinesPage {
    let response = try await transport.get(url)
    guard (200..<300).contains(response.status) else {
      throw ProviderError.status(provider: "bbc", code: response.status)
    }
    return try Self.decode(response.body, fetchedAt: now())
  }

  static func decode(_ body: Data, fetchedAt: Date) throws(ProviderError) -> HeadlinesPage {
    let response: BBCResponse
    do {
      response = try JSONDecoder().decode(BBCResponse.self, from: body)
    } catch {
      throw .undecodable(provider: "bbc", detail: DecodingErrorDescription.describe(error))
    }
    let articles = response.headlines.compactMap { item -> Article? in
      guard let headline = item.headline.nonEmpty else { return nil }
      return Article(
        id: "bbc-" + StableHash.hex(headline), provider: "bbc", title: headline,
        description: item.introduction.nonEmpty,
        publishedAt: (item.updated ?? item.firstPublished).map(Date.init(timeIntervalSince1970:)))
    }
    return HeadlinesPage(
      provider: "bbc", totalResults: articles.count, articles: articles, fetchedAt: fetchedAt)
  }
}
