import FeedParsing
import Foundation

/// newsapi.org's `/v2/top-headlines` and `/v2/everything`, with the key in the `X-Api-Key` header and never in a URL.
public struct NewsAPIClient: Sendable {
  private let baseURL: URL
  private let apiKey: String
  private let transport: HTTPTransport
  private let now: @Sendable () -> Date

  /// Creates a client for the newsapi.org-compatible server at `baseURL`.
  public init(
    baseURL: URL, apiKey: String, transport: HTTPTransport,
    now: @escaping @Sendable () -> Date
  ) {
    self.baseURL = baseURL
    self.apiKey = apiKey
    self.transport = transport
    self.now = now
  }

  /// Fetches one page of top headlines.
  ///
  /// - Throws: ``QueryError`` before any request when the query is invalid, ``NewsAPIError`` for
  ///   what the server said, ``HTTPError`` when it could not be reached.
  public func topHeadlines(_ query: TopHeadlinesQuery) async throws -> ArticleList {
    try query.validate()
    return try await get("/v2/top-headlines", query: query.queryItems)
  }

  /// Searches every article newsapi.org has (`/v2/everything`).
  ///
  /// - Throws: as ``topHeadlines(_:)``.
  public func everything(_ query: EverythingQuery) async throws -> ArticleList {
    try query.validate()
    return try await get("/v2/everything", query: query.queryItems)
  }

  private func get(_ path: String, query: [(String, String)]) async throws -> ArticleList {
    let url = URLBuilder.url(baseURL, path: path, query: query)
    let response = try await transport.get(url, headers: ["X-Api-Key": apiKey])
    return try Self.decode(
      status: response.status, body: response.body, fetchedAt: now(), redacting: apiKey,
      attempts: response.attempts)
  }

  /// Turns a newsapi.org answer into a page, or into the error it describes.
  static func decode(
    status: Int, body: Data, fetchedAt: Date, redacting secret: String = "", attempts: Int = 1
  ) throws(NewsAPIError) -> ArticleList {
    let decoder = JSONDecoder()
    // Every field taken from the answer goes through `redact`: a server that echoes the key in
    // its error code or message must not make it appear on the screen.
    func redact(_ text: String) -> String {
      secret.isEmpty ? text : text.replacingOccurrences(of: secret, with: "***")
    }
    if let error = try? decoder.decode(NewsAPIErrorBody.self, from: body), error.status == "error" {
      throw .api(code: redact(error.code), message: error.message.map(redact))
    }
    guard HTTPResponse.isSuccess(status) else {
      if status >= 500 || status == 429 { throw .server(status: status, attempts: attempts) }
      // Refused without saying why: the key is the only credential there is.
      if status == 401 || status == 403 { throw .api(code: "apiKeyInvalid", message: nil) }
      throw .unparseable(status: status, detail: "HTTP \(status) without an error body")
    }
    let response: NewsAPIResponse
    do {
      response = try decoder.decode(NewsAPIResponse.self, from: body)
    } catch {
      throw .unparseable(status: status, detail: DecodingErrorDescription.describe(error))
    }
    guard response.status == "ok", let wireArticles = response.articles else {
      throw .unparseable(
        status: status, detail: "status is '\(redact(response.status))' without articles")
    }
    if wireArticles.elements.isEmpty, let reason = wireArticles.failures.first {
      throw .unparseable(status: status, detail: redact(reason))
    }
    let articles = wireArticles.elements.compactMap(Self.article).uniquedByID()
    var page = ArticleList(
      provider: SourceName.newsAPI, totalResults: response.totalResults ?? articles.count,
      articles: articles, fetchedAt: fetchedAt)
    if let warning = SkippedItems.warning(
      "newsapi.org", skipped: wireArticles.failures.map(redact), of: wireArticles.count)
    {
      page.warnings.append(warning)
    }
    return page
  }

  /// newsapi.org replaces withdrawn articles by `[Removed]` placeholders: those are dropped.
  static func article(_ wire: NewsAPIResponse.WireArticle) -> Article? {
    let title = wire.title.nonEmpty
    guard title != "[Removed]" else { return nil }
    let url = wire.url.nonEmpty
    let published = wire.publishedAt.nonEmpty.flatMap(ISO8601.date(from:))
    let id =
      url.map(ArticleID.derive(fromURL:)).flatMap { ArticleID.namesAPage($0) ? $0 : nil }
      ?? SourceName.newsAPI + "-"
      + StableHash.hex(title ?? "", wire.publishedAt ?? "", wire.source?.name ?? "")
    let publisher = wire.source?.name.nonEmpty
    return Article(
      id: id, provider: SourceName.newsAPI,
      title: title.map { withoutPublisher($0, publisher) } ?? "(untitled)",
      description: wire.description.nonEmpty, author: wire.author.nonEmpty,
      publisher: publisher, url: url, imageURL: wire.urlToImage.nonEmpty,
      publishedAt: published, content: wire.content.nonEmpty)
  }

  /// `Amazon and Visa end their dispute - CNBC` → `Amazon and Visa end their dispute`:
  /// newsapi.org ends a headline with ` - ` and its publisher, which every list shows beside it
  /// already, and the site's own ` | Name` may come before it (`… | TheHill - The Hill`). Each
  /// such ending goes when it names the publisher however it is spelt (`USA TODAY` for `USA
  /// Today`, `The New York Times` for `New York Times`, `TheHill` for `The Hill`); another name
  /// (`- NASCAR` of a YouTube video) stays, and so does a title that is nothing else.
  static func withoutPublisher(_ title: String, _ publisher: String?) -> String {
    guard let publisher else { return title }
    let name = plainName(publisher)
    guard !name.isEmpty else { return title }
    var kept = title.trimmingCharacters(in: .whitespaces)
    while let cut = kept.range(of: " - ", options: .backwards)
      ?? kept.range(of: " | ", options: .backwards),
      plainName(kept[cut.upperBound...]) == name
    {
      let rest = kept[..<cut.lowerBound].trimmingCharacters(in: .whitespaces)
      guard !rest.isEmpty, plainName(rest) != name else { break }
      kept = rest
    }
    return kept == title.trimmingCharacters(in: .whitespaces) ? title : kept
  }

  /// A publisher's name as two spellings of it compare: letters and digits in lower case,
  /// without a first `the`.
  private static func plainName(_ text: some StringProtocol) -> String {
    let letters = String(
      text.lowercased().unicodeScalars.filter(CharacterSet.alphanumerics.contains))
    return letters.hasPrefix("the") && letters.count > 3 ? String(letters.dropFirst(3)) : letters
  }
}
