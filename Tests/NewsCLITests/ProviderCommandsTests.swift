import FeedParsing
import Foundation
import NewsCore
import TestSupport
import Testing

@Suite("headlines --from articles and bbc")
struct ProviderCommandsTests {
  let harness: Harness

  init() throws {
    harness = try Harness()
    harness.server.route("/articles", .fixture("articles.json"))
    harness.server.route("/bbc.json", .fixture("headlines-enhanced.json"))
  }

  @Test("--from articles: title, two lines of description cut with …, image")
  func articlesText() async throws {
    let result = await harness.run(["headlines", "--from", "articles", "--limit", "2"], width: 60)
    #expect(result.code == .success)
    let lines = result.out.split(separator: "\n", omittingEmptySubsequences: true)
    // Heading, then per item: title, two description lines, image.
    #expect(lines.count == 1 + 2 * 4)
    #expect(lines[3].hasSuffix("…"))
    #expect(lines[4].contains("http://dummyimage.com/"))
  }

  @Test("--from articles --json: the ARTICLE shape, newest first, publishedAt at midnight UTC")
  func articlesJSON() async throws {
    let result = await harness.run(["headlines", "--from", "articles", "--json"])
    let document = try result.json()
    #expect(document["provider"] as? String == "articles")
    let articles = try #require(document["articles"] as? [[String: Any]])
    #expect(articles.count == 60)
    #expect((articles[0]["publishedAt"] as? String)?.hasSuffix("T00:00:00Z") == true)
    #expect((articles[0]["id"] as? String)?.hasPrefix("articles-") == true)
  }

  @Test("show articles-<id>: image, title, description, author, release date")
  func showArticle() async throws {
    await harness.succeed(["headlines", "--from", "articles"])
    let result = await harness.run(["show", "articles-1"])
    #expect(result.code == .success)
    #expect(result.out.hasPrefix("Image: http://dummyimage.com/366x582.png/5fa2dd/ffffff"))
    #expect(result.out.contains("Realigned multimedia framework"))
    #expect(result.out.contains("Author:   sfolley0@nhs.uk"))
    #expect(result.out.contains("Released: Mon, Jun 25, '18"))
    #expect(!result.out.contains("♥"))
    #expect(harness.server.requests.filter { $0.path.hasPrefix("/info") }.isEmpty)
  }

  @Test(
    "--from bbc: headline bold; the day in light grey (0x3d3d3d) with truecolor on a light background, dim elsewhere",
    arguments: [
      (["COLORTERM": "truecolor", "COLORFGBG": "0;15"], "\u{1B}[38;2;61;61;61m"),
      (["COLORTERM": "truecolor", "COLORFGBG": "15;0"], "\u{1B}[2m"),
      (["COLORTERM": nil, "COLORFGBG": "0;15"], "\u{1B}[2m"),
      (["COLORTERM": "24bit", "COLORFGBG": nil], "\u{1B}[2m"),
    ])
  func bbcText(terminal: [String: String?], grey: String) async throws {
    let result = await harness.run(
      ["headlines", "--from", "bbc"], environment: terminal, terminal: true)
    #expect(result.out.contains("\u{1B}[1mRare angel sharks found living off Wales\u{1B}[0m"))
    #expect(result.out.contains(grey + "24 November 2015\u{1B}[0m"))
    let plain = await harness.run(["headlines", "--from", "bbc"])
    #expect(plain.out.contains("24 November 2015"))
    #expect(!plain.out.contains("\u{1B}"))
  }

  @Test("--from bbc --json uses the same document, so one jq filter reads every provider")
  func bbcJSON() async throws {
    let result = await harness.run(["headlines", "--from", "bbc", "--json"])
    let document = try result.json()
    #expect(document["provider"] as? String == "bbc")
    let first = try #require((document["articles"] as? [[String: Any]])?.first)
    #expect(first["title"] as? String == "Rare angel sharks found living off Wales")
    #expect((first["description"] as? String)?.hasPrefix("Scientists") == true)
    #expect(first["publishedAt"] as? String == "2015-11-24T21:52:08Z")
    #expect(first["provider"] as? String == "bbc")
  }

  @Test("show bbc-…: headline, last updated, introduction")
  func showBBC() async throws {
    await harness.succeed(["headlines", "--from", "bbc"])
    let result = await harness.run(["show", "1"])
    #expect(
      result.out.hasPrefix(
        "Rare angel sharks found living off Wales\nLast updated 24 November 2015\n"))
    #expect(result.out.contains("Scientists have found evidence"))
  }

  @Test("articles: a failing server shows the stored articles with an error, as for newsapi")
  func staleArticles() async throws {
    await harness.succeed(["headlines", "--from", "articles"])
    harness.server.route("/articles", .json("{}", status: 500))
    let result = await harness.run(["headlines", "--from", "articles", "--json"])
    #expect(result.code == .success)
    #expect(try result.json()["stale"] as? Bool == true)
    #expect(result.err.contains("HTTP 500"))
    #expect(harness.server.requests(to: "/articles").count == 5)
    #expect(harness.sleeps.all == [.seconds(2), .seconds(2), .seconds(2)])
  }

  @Test(
    "--from with newsapi filters, or an unknown provider, is a usage error",
    arguments: [
      ["headlines", "--from", "bbc", "--country", "de"],
      ["headlines", "--from", "articles", "-q", "x"], ["headlines", "--from", "cnn"],
    ])
  func usage(arguments: [String]) async {
    let result = await harness.run(arguments)
    #expect(result.code == .usage)
    #expect(harness.server.requests.isEmpty)
  }
}
