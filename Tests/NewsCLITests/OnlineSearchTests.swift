import FeedParsing
import Foundation
import NewsCore
import TestSupport
import Testing

@Suite("news search --online")
struct OnlineSearchTests {
  let harness: Harness

  init() throws {
    harness = try Harness()
    harness.server.route("/v2/everything", .fixture("top-headlines-us-business-2022-02-10.json"))
  }

  @Test("every option reaches the query string, correctly encoded, with the key in a header")
  func options() async throws {
    let result = await harness.run([
      "search", "bitcoin", "&", "ether+eum", "--online", "--language", "fr", "--sort-by",
      "publishedAt", "--from", "2024-05-01", "--to", "2024-05-31T12:00:00Z", "--domains",
      "bbc.co.uk,lemonde.fr", "--exclude-domains", "example.com", "--search-in",
      "title,content", "--page-size", "5", "--page", "2",
    ])
    #expect(result.code == .success, "\(result.err)")
    let request = try #require(harness.server.requests(to: "/v2/everything").first)
    #expect(
      request.rawQuery
        == "q=bitcoin%20%26%20ether%2Beum&language=fr&sortBy=publishedAt&from=2024-05-01"
        + "&to=2024-05-31T12%3A00%3A00Z&domains=bbc.co.uk%2Clemonde.fr&excludeDomains=example.com"
        + "&searchIn=title%2Ccontent&pageSize=5&page=2")
    #expect(request.query["q"] == "bitcoin & ether+eum")
    #expect(request.headers["x-api-key"] == "test-key-123")
    #expect(!request.target.contains("test-key-123"))
  }

  @Test("the header says how many of totalResults were found")
  func header() async throws {
    let result = await harness.run(["search", "markets", "--online"])
    #expect(result.out.hasPrefix("Search · \"markets\" · 20 of 70 found · 20 unread\n"))
    #expect(result.out.contains("\n 1. "))
  }

  @Test("--json: the headlines document with provider newsapi; results become the last list")
  func json() async throws {
    let result = await harness.run(["search", "markets", "--online", "--json"])
    let document = try result.json()
    #expect(document["provider"] as? String == "newsapi")
    #expect(document["totalResults"] as? Int == 70)
    let articles = try #require(document["articles"] as? [[String: Any]])
    let shown = await harness.run(["show", "3", "--json", "--offline"])
    #expect(try shown.json()["id"] as? String == articles[2]["id"] as? String)
    // Stored like headlines: an offline search finds them, and they can be bookmarked.
    let title = try #require(articles[0]["title"] as? String)
    let word = try #require(title.split(separator: " ").first.map(String.init))
    let offline = await harness.run(["search", word, "--json"], environment: ["NEWSAPI_KEY": nil])
    #expect(offline.code == .success)
    #expect(try (offline.json()["articles"] as? [[String: Any]])?.isEmpty == false)
    #expect(await harness.run(["bookmark", "1"]).code == .success)
  }

  @Test(
    "invalid values and combinations are usage errors before any request",
    arguments: [
      ["--online", "--language", "french"], ["--online", "--sort-by", "date"],
      ["--online", "--from", "yesterday"], ["--online", "--to", "2024-13-01"],
      ["--online", "--from", "2024-06-01", "--to", "2024-05-01"],
      ["--online", "--search-in", "title,body"], ["--online", "--domains", "not a domain"],
      ["--online", "--page-size", "0"], ["--online", "--page", "-1"], ["--language", "fr"],
      ["--sort-by", "relevancy"],
    ])
  func invalid(options: [String]) async {
    let result = await harness.run(["search", "x"] + options)
    #expect(result.code == .usage, "\(options): \(result.err)")
    #expect(harness.server.requests.isEmpty)
  }

  @Test("errors as for top headlines; stale results only for the identical query")
  func errors() async throws {
    await harness.succeed(["search", "markets", "--online"])
    harness.server.route("/v2/everything", .json("{}", status: 503))
    let same = await harness.run(["search", "markets", "--online", "--json"])
    #expect(same.code == .success)
    #expect(try same.json()["stale"] as? Bool == true)
    let other = await harness.run(["search", "markets", "--online", "--page", "2"])
    #expect(other.code == .unavailable)
    harness.server.route(
      "/v2/everything",
      .json(#"{"status":"error","code":"apiKeyInvalid","message":"no"}"#, status: 401))
    let refused = await harness.run(["search", "markets", "--online"])
    #expect(refused.code == .permissionDenied)
  }
}
