import Foundation
import TestSupport
import Testing

@testable import NewsCLI

@Suite("news search: the newest first, and on a terminal the newest 100")
struct SearchLimitTests {
  @Test(
    "the heading quotes the query once, whatever quotes it holds",
    arguments: [
      ("climate", #""climate""#), (#""credit card" visa"#, #"'"credit card" visa'"#),
      (#"it's "a""#, #"it's "a""#), ("it's", #""it's""#),
    ])
  func heading(query: String, expected: String) {
    #expect(SearchCommand.quoted(query) == expected)
  }

  @Test("a terminal shows 100 and says more match; --json and --limit show what they ask")
  func terminalDefault() async throws {
    let harness = try Harness()
    let items = (0..<150).map { index in
      "<item><title>story \(index)</title><link>https://example.com/\(index)</link>"
        + "<pubDate>Mon, 02 Nov 2026 \(String(format: "%02d", index / 60)):\(String(format: "%02d", index % 60)):00 GMT</pubDate></item>"
    }.joined()
    harness.server.route(
      "/many.xml",
      LoopbackServer.Response(body: Data("<rss><channel>\(items)</channel></rss>".utf8)))
    let base = harness.server.baseURL.absoluteString
    let config = try harness.home.write(
      "config.json", #"{"sources": [{"name": "many", "url": "\#(base)/many.xml"}]}"#)
    let environment: [String: String?] = ["NEWS_CONFIG": config]
    await harness.succeed(["feed", "--source", "many"], environment: environment)

    let terminal = await harness.run(
      ["search", "story"], environment: environment.merging(["NO_COLOR": "1"]) { $1 },
      terminal: true, width: 200)
    #expect(terminal.code == .success, "\(terminal.err)")
    #expect(terminal.out.contains("100. story 50"))
    #expect(!terminal.out.contains("101. "))
    #expect(terminal.out.contains("The newest 100 are shown; more match"))
    #expect(terminal.out.hasPrefix("Search · \"story\" · 100 of 150"))

    let json = await harness.run(["search", "story", "--json"], environment: environment)
    #expect(try (json.json()["articles"] as? [[String: Any]])?.count == 150)
    let limited = await harness.run(["search", "story", "--limit", "3"], environment: environment)
    #expect(limited.out.contains("1. story 149"))
    #expect(limited.out.contains("3. story 147"))
    #expect(!limited.out.contains("The newest"))
  }
}
