import FeedParsing
import Foundation
import NewsCore
import TestSupport
import Testing

@Suite("news headlines")
struct HeadlinesCommandTests {
  let harness: Harness

  init() throws {
    harness = try Harness()
    harness.server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
  }

  @Test("--json prints the documented document")
  func json() async throws {
    let result = await harness.run(["headlines", "--json"])
    #expect(result.code == .success)
    #expect(result.err.isEmpty)
    let document = try result.json()
    #expect(document["schemaVersion"] as? Int == 1)
    #expect(document["provider"] as? String == "newsapi")
    #expect(document["totalResults"] as? Int == 38)
    #expect(document["stale"] as? Bool == false)
    #expect(document["fetchedAt"] as? String == "2022-02-17T17:46:40Z")
    let articles = try #require(document["articles"] as? [[String: Any]])
    #expect(articles.count == 20)
    // Additive: a list's ARTICLE gained "enclosures" (empty here), then ITEM's "subtitle" and
    // "sources" (#47.2), then "categories" (a feed item's; empty here).
    let keys = [
      "id", "provider", "title", "description", "author", "source", "url", "imageUrl",
      "publishedAt", "content", "categories", "read", "subtitle", "sources", "enclosures",
    ]
    for article in articles { #expect(Set(article.keys) == Set(keys)) }
    // Key order is part of the contract too.
    let firstArticle = try #require(result.out.range(of: "\"id\""))
    let imageKey = try #require(result.out.range(of: "\"imageUrl\""))
    #expect(firstArticle.lowerBound < imageKey.lowerBound)
  }

  @Test("text: numbered list with header, placeholders, no escapes in a pipe")
  func text() async throws {
    let result = await harness.run(["headlines"])
    #expect(result.code == .success)
    let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.first == "Top headlines · us · 20 of 38 · 20 unread")
    #expect(result.out.contains("\n 1. "))
    #expect(result.out.contains("\n20. "))
    #expect(!result.out.contains("\u{1B}"))
    // URLs are never broken, so that they stay clickable and copyable.
    #expect(lines.filter { !$0.contains("://") }.allSatisfy { $0.count <= 80 })
    #expect(lines.contains { $0.contains("://") && $0.count > 80 })
  }

  @Test("bold titles on a terminal, none with NO_COLOR")
  func colour() async throws {
    let terminal = await harness.run(["headlines"], terminal: true)
    #expect(terminal.out.contains("\u{1B}[1m"))
    let noColor = await harness.run(["headlines"], environment: ["NO_COLOR": "1"], terminal: true)
    #expect(!noColor.out.contains("\u{1B}"))
  }

  @Test("the text is wrapped to the width")
  func width() async throws {
    let result = await harness.run(["headlines"], width: 40)
    let lines = result.out.split(separator: "\n").filter { !$0.contains("://") }
    #expect(lines.allSatisfy { $0.count <= 40 })
  }

  @Test("--limit trims the list")
  func limit() async throws {
    let result = await harness.run(["headlines", "--json", "--limit", "3"])
    let articles = try #require(try result.json()["articles"] as? [Any])
    #expect(articles.count == 3)
  }

  @Test("control sequences from the network never reach the terminal")
  func hostileText() async throws {
    let body = """
      {"status":"ok","totalResults":1,"articles":[{"source":{"name":"Evil\\u001b[2J"},
      "author":"\\u001b]0;pwned\\u0007Bob","title":"Hi\\u001b[31m there","description":"a\\rb",
      "url":"https://e.example/x","urlToImage":null,"publishedAt":"2022-02-17T10:00:00Z",
      "content":null}]}
      """
    harness.server.route("/v2/top-headlines", .json(body))
    let result = await harness.run(["headlines"])
    #expect(!result.out.contains("\u{1B}"))
    #expect(!result.out.contains("\r"))
    #expect(result.out.contains("Hi there"))
    #expect(result.out.contains("[no image]"))
    #expect(result.out.contains("by Bob"))
  }

  @Test("without a key: exit 78 naming NEWSAPI_KEY, no request")
  func missingKey() async throws {
    let result = await harness.run(["headlines"], environment: ["NEWSAPI_KEY": nil])
    #expect(result.code == .configuration)
    #expect(result.err.contains("NEWSAPI_KEY"))
    #expect(result.err.contains(".env.example"))
    // The places looked at are named: here, and the configuration directory.
    #expect(result.err.contains(harness.home.path(".env")), "\(result.err)")
    #expect(result.err.contains(harness.home.path("news/.env")), "\(result.err)")
    #expect(harness.server.requests.isEmpty)
  }

  @Test(
    "likes and comments are asked for newsapi.org's articles only, unless NEWS_COUNTS says",
    arguments: [(nil as String?, 1), ("newsapi", 1), ("all", 2), ("off", 0)])
  func countsPolicy(setting: String?, asked: Int) async throws {
    harness.server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    harness.server.route(
      "/r.xml",
      .json(
        "<rss version=\"2.0\"><channel><title>R</title><item><title>A post</title>"
          + "<link>https://blog.example/post</link></item></channel></rss>"))
    harness.server.route(prefix: "/info/likes/") { _ in .json(#"{"likes": 14}"#) }
    harness.server.route(prefix: "/info/comments/") { _ in .json(#"{"comments": 5}"#) }
    let config = try harness.home.write(
      "config.json",
      #"{"sources": [{"name": "r", "url": "\#(harness.server.baseURL.absoluteString)/r.xml"}]}"#)
    let environment: [String: String?] = ["NEWS_COUNTS": setting, "NEWS_CONFIG": config]
    #expect(await harness.run(["headlines"], environment: environment).code == .success)
    #expect(await harness.run(["show", "1"], environment: environment).code == .success)
    // A web feed's article is asked only with "all".
    let other = await harness.run(["feed", "--source", "r"], environment: environment)
    #expect(other.code == .success, "\(other.err)")
    #expect(await harness.run(["show", "1"], environment: environment).code == .success)
    let likes = harness.server.requests.filter { $0.path.hasPrefix("/info/likes/") }
    #expect(likes.count == asked, "\(likes.map(\.path))")
  }

  @Test("NEWS_COUNTS with another value is exit 78 naming it")
  func badCountsPolicy() async {
    let result = await harness.run(["headlines"], environment: ["NEWS_COUNTS": "some"])
    #expect(result.code == .configuration)
    #expect(result.err.contains("NEWS_COUNTS='some' is not valid: expected all, newsapi or off"))
  }

  @Test("the key in the configuration directory's .env is found from anywhere (cron too)")
  func keyInConfigDirectory() async throws {
    harness.server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    try FileManager.default.createDirectory(
      atPath: harness.home.path("news"), withIntermediateDirectories: true)
    _ = try harness.home.write("news/.env", "NEWSAPI_KEY=from-config-dir\nCOLUMNS=50\n")
    // The working directory's .env wins over it, the environment over both.
    _ = try harness.home.write(".env", "COLUMNS=60\n")
    let result = await harness.run(["headlines"], environment: ["NEWSAPI_KEY": nil])
    #expect(result.code == .success, "\(result.err)")
    #expect(harness.server.requests.first?.headers["x-api-key"] == "from-config-dir")
    let settings = try Configuration.load(
      environment: ["HOME": harness.home.url.path, "NEWS_HOME": harness.home.path("news")],
      currentDirectory: harness.home.url)
    #expect(settings.columns == 60)
    #expect(settings.newsAPIKey == "from-config-dir")
  }

  @Test("a bad variable is exit 78")
  func badVariable() async {
    let result = await harness.run(["headlines"], environment: ["NEWS_TIMEOUT": "abc"])
    #expect(result.code == .configuration)
    #expect(
      result.err
        == "news: NEWS_TIMEOUT='abc' is not valid: expected a number of seconds greater than 0, e.g. 15 or 2.5\n"
    )
  }

  @Test(
    "usage errors are exit 64 before any request",
    arguments: [
      ["headlines", "--sources", "cnn", "--country", "us"],
      ["headlines", "--category", "weather"], ["headlines", "--page-size", "500"],
      ["headlines", "--page", "0"], ["headlines", "--limit", "x"],
      ["headlines", "--pagesize", "5"],
      ["headline"], ["--json"],
    ])
  func usage(arguments: [String]) async {
    let result = await harness.run(arguments)
    #expect(result.code == .usage)
    #expect(result.err.hasPrefix("news: "))
    #expect(result.err.filter { $0 == "\n" }.count == 1)
    #expect(harness.server.requests.isEmpty)
  }

  @Test(
    "server errors map to exit codes, the key never shown",
    arguments: [
      (401, "apiKeyInvalid", 77), (429, "rateLimited", 75), (400, "parameterInvalid", 64),
      (500, "unexpectedError", 69),
    ])
  func serverErrors(status: Int, code: String, exit: Int32) async {
    harness.server.route(
      "/v2/top-headlines",
      .json(
        #"{"status":"error","code":"\#(code)","message":"test-key-123 said no"}"#, status: status))
    let result = await harness.run(["headlines"])
    #expect(result.code.rawValue == exit)
    #expect(!result.err.contains("test-key-123"))
    #expect(!result.out.contains("test-key-123"))
  }

  @Test("an unreachable server is exit 69 after four attempts")
  func unreachable() async throws {
    harness.server.route("/v2/top-headlines", .dropped)
    let result = await harness.run(["headlines"])
    #expect(result.code == .unavailable)
    #expect(harness.server.requests.count == 4)
    #expect(harness.sleeps.all == [.seconds(2), .seconds(2), .seconds(2)])
  }

  @Test("NEWS_RETRY_DELAY sets the pause between attempts")
  func retryDelay() async {
    harness.server.route("/v2/top-headlines", .json("{}", status: 503))
    let result = await harness.run(["headlines"], environment: ["NEWS_RETRY_DELAY": "0.25"])
    #expect(result.code == .unavailable)
    #expect(harness.sleeps.all == [.milliseconds(250), .milliseconds(250), .milliseconds(250)])
  }

  @Test("help and version")
  func help() async {
    let overview = await harness.run(["--help"])
    #expect(overview.code == .success)
    #expect(overview.out.contains("headlines"))
    let command = await harness.run(["help", "headlines"])
    #expect(command.out.contains("--page-size"))
    let flag = await harness.run(["headlines", "-h"])
    #expect(flag.out == command.out)
    let version = await harness.run(["--version"])
    #expect(version.out == "news \(NewsVersion.current)\n")
  }
}
