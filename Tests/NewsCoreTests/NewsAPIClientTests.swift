import Foundation
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

@Suite("newsapi.org top headlines")
struct NewsAPIClientTests {
  let server: LoopbackServer
  let fetchedAt = Date(timeIntervalSince1970: 1_700_000_000)

  init() throws { server = try LoopbackServer() }

  func client(key: String = "test-key-123") -> NewsAPIClient {
    NewsAPIClient(
      baseURL: server.baseURL, apiKey: key,
      transport: HTTPTransport(
        client: URLSessionHTTPClient(), retryPolicy: RetryPolicy(delay: .zero), timing: .test()),
      now: { [fetchedAt] in fetchedAt })
  }

  @Test(
    "decodes every real sample",
    arguments: [
      ("top-headlines-us-2022-02-17.json", 38),
      ("top-headlines-us-business-2022-02-10.json", 70),
      ("top-headlines-2019-03-27-trimmed-nulls.json", 2),
      ("top-headlines-country-cl-empty-2025-05-28.json", 0),
    ])
  func realSamples(file: String, total: Int) throws {
    let page = try NewsAPIClient.decode(
      status: 200, body: Fixtures.data(file), fetchedAt: fetchedAt)
    #expect(page.totalResults == total)
    #expect(page.provider == "newsapi")
    for article in page.articles {
      #expect(!article.title.isEmpty)
      #expect(article.publishedAt != nil)
      #expect(article.description != "")
      #expect(article.author != "")
      if let url = article.url { #expect(article.id == ArticleID.derive(fromURL: url)) }
    }
  }

  @Test(
    "a headline's trailing ' - publisher' goes (any spelling); other dashes and names stay",
    arguments: [
      ("Amazon and Visa end their dispute - CNBC", "CNBC", "Amazon and Visa end their dispute"),
      ("Canada wins gold - USA TODAY", "USA Today", "Canada wins gold"),
      ("FAA head to resign | TheHill - The Hill", "The Hill", "FAA head to resign"),
      ("Claims about his wealth - The New York Times", "New York Times", "Claims about his wealth"),
      ("Shark attack in Sydney - New York Post ", "New York Post", "Shark attack in Sydney"),
      ("Daytona 500 qualifying - NASCAR", "YouTube", "Daytona 500 qualifying - NASCAR"),
      ("Rust 2.0 | Part 1 - LWN.net", "LWN.net", "Rust 2.0 | Part 1"),
      ("The Hill - The Hill", "The Hill", "The Hill - The Hill"),
      ("Left - right - CNN", "CNN", "Left - right"),
      ("A story - CNN", "BBC News", "A story - CNN"),
      (" - CNN", "CNN", " - CNN"),
      ("CNN", "CNN", "CNN"),
      ("A story - CNN", nil, "A story - CNN"),
    ] as [(String, String?, String)])
  func publisherSuffix(title: String, publisher: String?, expected: String) {
    #expect(NewsAPIClient.withoutPublisher(title, publisher) == expected)
  }

  @Test("the real sample's titles end without their publisher")
  func realTitles() throws {
    let page = try NewsAPIClient.decode(
      status: 200, body: Fixtures.data("top-headlines-us-2022-02-17.json"), fetchedAt: fetchedAt)
    let cnbc = try #require(page.articles.first { $0.publisher == "CNBC" })
    #expect(cnbc.title == "Amazon and Visa agree to end global dispute over credit card fees")
    #expect(
      !page.articles.contains { article in
        article.publisher.map { article.title.lowercased().hasSuffix(" - " + $0.lowercased()) }
          ?? false
      })
  }

  @Test("null fields are absent, not empty")
  func nulls() throws {
    let page = try NewsAPIClient.decode(
      status: 200, body: Fixtures.data("top-headlines-2019-03-27-trimmed-nulls.json"),
      fetchedAt: fetchedAt)
    let second = try #require(page.articles.last)
    #expect(second.author == nil)
    #expect(second.description == nil)
    #expect(second.imageURL == nil)
    #expect(second.content == nil)
    #expect(second.publisher == "Youtube.com")
    #expect(second.id == "www.youtube.com-watch?v=B5dlk4v-7gg")
    #expect(second.publishedAt == ISO8601.date(from: "2019-03-27T19:11:28Z"))
  }

  @Test("empty strings count as absent; [Removed] placeholders are dropped")
  func emptyStrings() throws {
    let body = """
      {"status":"ok","totalResults":2,"articles":[
       {"source":{"id":null,"name":""},"author":"","title":"Kept","description":" ",
        "url":"https://x.example/a","urlToImage":"","publishedAt":"2024-01-02T03:04:05.123+02:00",
        "content":""},
       {"source":{"id":null,"name":"[Removed]"},"author":null,"title":"[Removed]",
        "description":"[Removed]","url":"https://removed.com","urlToImage":null,
        "publishedAt":"1970-01-01T00:00:00Z","content":"[Removed]"}]}
      """
    let page = try NewsAPIClient.decode(status: 200, body: Data(body.utf8), fetchedAt: fetchedAt)
    #expect(page.articles.count == 1)
    let article = try #require(page.articles.first)
    #expect(article.author == nil && article.description == nil && article.imageURL == nil)
    #expect(article.publisher == nil && article.content == nil)
    #expect(article.publishedAt == ISO8601.date(from: "2024-01-02T01:04:05.123Z"))
  }

  @Test(
    "a URL that names no page gives the article the id it would have without one",
    arguments: ["https://", "http:///", "x://", "-"])
  func urlWithoutPage(url: String) throws {
    // Found by the fuzzer: `https://` made the id empty, which no article may have.
    let body = """
      {"status":"ok","articles":[{"source":{"name":"P"},"title":"T","url":"\(url)",
       "publishedAt":"2024-01-02T03:04:05Z"}]}
      """
    let page = try NewsAPIClient.decode(status: 200, body: Data(body.utf8), fetchedAt: fetchedAt)
    let article = try #require(page.articles.first)
    #expect(article.url == url)
    #expect(article.id.hasPrefix("newsapi-") && article.id.count > "newsapi-".count)
  }

  @Test(
    "error codes map to exit codes",
    arguments: [
      ("apiKeyInvalid", 401, 77), ("apiKeyMissing", 401, 77), ("apiKeyDisabled", 401, 77),
      ("apiKeyExhausted", 429, 77), ("rateLimited", 429, 75), ("parameterInvalid", 400, 64),
      ("parametersMissing", 400, 64), ("sourcesTooMany", 400, 64),
      ("sourceDoesNotExist", 400, 64), ("unexpectedError", 500, 69), ("somethingNew", 400, 69),
    ])
  func errorCodes(code: String, status: Int, exit: Int32) {
    let body = #"{"status":"error","code":"\#(code)","message":"The message is not matched"}"#
    #expect {
      try NewsAPIClient.decode(status: status, body: Data(body.utf8), fetchedAt: fetchedAt)
    } throws: { error in
      guard let error = error as? NewsAPIError, case .api(let matched, _) = error else {
        return false
      }
      return matched == code && error.exitCode.rawValue == exit
    }
  }

  @Test("the real apiKeyMissing body maps to 77")
  func realErrorBody() {
    #expect(throws: NewsAPIError.self) {
      try NewsAPIClient.decode(
        status: 401, body: Fixtures.data("error-apiKeyMissing-401.json"), fetchedAt: fetchedAt)
    }
  }

  @Test(
    "unparseable bodies are data errors (65); bare server failures are 69",
    arguments: [
      (200, "<html>oops</html>", 65), (200, #"{"status":"ok"}"#, 65),
      (200, #"{"status":"ok","articles":[{"title":5}]}"#, 65), (502, "Bad gateway", 69),
      (404, "not here", 65),
    ])
  func unparseable(status: Int, body: String, exit: Int32) {
    #expect {
      try NewsAPIClient.decode(status: status, body: Data(body.utf8), fetchedAt: fetchedAt)
    } throws: { error in
      (error as? NewsAPIError)?.exitCode.rawValue == exit
    }
  }

  @Test("the key travels in X-Api-Key only, never in the URL; filters reach the query")
  func request() async throws {
    server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    let page = try await client().topHeadlines(
      TopHeadlinesQuery(category: "technology", query: "a+b & c", pageSize: 5, page: 2))
    #expect(page.articles.count == 20)
    let request = try #require(server.requests.first)
    #expect(request.headers["x-api-key"] == "test-key-123")
    #expect(!request.target.contains("test-key-123"))
    #expect(request.query["country"] == "us")
    #expect(request.query["category"] == "technology")
    #expect(request.query["q"] == "a+b & c")
    #expect(request.query["pageSize"] == "5")
    #expect(request.query["page"] == "2")
  }

  @Test("sources go without country")
  func sources() async throws {
    server.route("/v2/top-headlines", .fixture("top-headlines-country-cl-empty-2025-05-28.json"))
    _ = try await client().topHeadlines(TopHeadlinesQuery(sources: ["bbc-news", "cnn"]))
    let query = try #require(server.requests.first).query
    #expect(query["sources"] == "bbc-news,cnn")
    #expect(query["country"] == nil)
  }

  @Test(
    "invalid queries are refused before any request",
    arguments: [
      TopHeadlinesQuery(country: "us", sources: ["cnn"]),
      TopHeadlinesQuery(category: "sports", sources: ["cnn"]),
      TopHeadlinesQuery(category: "weather"), TopHeadlinesQuery(country: "usa"),
      TopHeadlinesQuery(pageSize: 0), TopHeadlinesQuery(pageSize: 101), TopHeadlinesQuery(page: 0),
    ])
  func invalid(query: TopHeadlinesQuery) async {
    await #expect(throws: QueryError.self) { _ = try await client().topHeadlines(query) }
    #expect(server.requests.isEmpty)
  }

  @Test(
    "every field of an answer that echoes the key has it redacted",
    arguments: [
      #"{"status":"error","code":"weird","message":"key sekret-key is odd"}"#,
      #"{"status":"error","code":"weird-sekret-key","message":"odd"}"#,
      #"{"status":"error","code":"weird-sekret-key"}"#,
      #"{"status":"sekret-key"}"#,
    ])
  func redaction(body: String) {
    #expect {
      try NewsAPIClient.decode(
        status: 400, body: Data(body.utf8), fetchedAt: fetchedAt, redacting: "sekret-key")
    } throws: { error in
      let message = (error as? NewsAPIError)?.message ?? ""
      return !message.contains("sekret-key") && !message.isEmpty
    }
  }

  @Test("a 500 that persists is a server error after four attempts")
  func persistentOutage() async throws {
    server.route("/v2/top-headlines", .json("oops", status: 500))
    await #expect(throws: NewsAPIError.server(status: 500, attempts: 4)) {
      _ = try await client().topHeadlines(TopHeadlinesQuery())
    }
    #expect(server.requests.count == 4)
  }
}
