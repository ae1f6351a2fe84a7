import FeedParsing
import Foundation
import NewsCore
import TestSupport
import Testing

/// The outside audit's cases (#21): each one failed before, with the message quoted in the issue.
@Suite("Hardening: messages a user can act on")
struct HardeningTests {
  let harness: Harness

  init() throws {
    harness = try Harness()
  }

  func config(_ text: String) throws -> [String: String?] {
    ["NEWS_CONFIG": try harness.home.write("config.json", text)]
  }

  @Test(
    "what the user typed is echoed inert: no escape or bell reaches the terminal",
    arguments: [
      ["search", "\u{1B}]0;owned\u{07}"], ["search", "\u{1B}[2J", "--terminal"],
      ["ignore", "add", "\u{1B}]0;x\u{07}"], ["show", "\u{1B}]0;x\u{07}"],
    ])
  func echoedInert(arguments: [String]) async throws {
    let terminal = arguments.last == "--terminal"
    let result = await harness.run(
      terminal ? Array(arguments.dropLast()) : arguments, terminal: terminal)
    for text in [result.out, result.err] {
      #expect(!text.contains("\u{07}") && !text.contains("\u{1B}]") && !text.contains("\u{1B}[2J"))
    }
  }

  @Test("a redirect loop says so, and is not retried")
  func redirectLoop() async throws {
    harness.server.route("/loop", .redirect(to: "/loop"))
    let base = harness.server.baseURL.absoluteString
    let result = await harness.run(
      ["feed", "--source", "loop"],
      environment: try config(#"{"sources": [{"name": "loop", "url": "\#(base)/loop"}]}"#))
    #expect(result.code == .unavailable)
    #expect(
      result.err.contains("source loop: 127.0.0.1 redirected too many times (a redirect loop)"),
      "\(result.err)")
    #expect(!result.err.contains("cannot reach"))
    #expect(!result.err.contains("attempts"))
  }

  @Test("an upper-case scheme is read as the lower-case one it means")
  func upperCaseScheme() async throws {
    harness.server.route(
      "/feed.xml", LoopbackServer.Response(body: Fixtures.data("feeds/rss20_1.xml")))
    let base = harness.server.baseURL.absoluteString
    let environment = try config(#"{"sources": []}"#)
    let result = await harness.run(
      ["sources", "add", base.replacingOccurrences(of: "http://", with: "HTTP://") + "/feed.xml"],
      environment: environment)
    #expect(result.code == .success, "\(result.err)")
    let written = try String(contentsOfFile: harness.home.path("config.json"), encoding: .utf8)
    #expect(written.contains("\"url\":\"\(base)/feed.xml\""))
  }

  @Test("NEWS_CONFIG naming a directory says so")
  func configDirectory() async throws {
    let result = await harness.run(["sources"], environment: ["NEWS_CONFIG": harness.home.url.path])
    #expect(result.code == .configuration)
    #expect(result.err.contains("a directory, not a file"))
  }

  @Test("a source may not take a provider's or a list's name; a provider's entry holds enabled")
  func reservedName() async throws {
    let result = await harness.run(
      ["feed"],
      environment: try config(#"{"sources": [{"name": "newsapi", "url": "https://x.example/f"}]}"#))
    #expect(result.code == .configuration)
    #expect(result.err.contains("field 'url' does not apply to a provider"), "\(result.err)")
    let list = await harness.run(
      ["feed"],
      environment: try config(#"{"sources": [{"name": "search", "url": "https://x.example/f"}]}"#))
    #expect(list.code == .configuration)
    #expect(list.err.contains("'search' is taken by a provider or a list"))
  }

  @Test("unread takes an id whose article retention dropped while its read mark remains")
  func unreadDropped() async throws {
    harness.server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    let list = await harness.run(["headlines", "--json"])
    let articles = try #require(try list.json()["articles"] as? [[String: Any]])
    let id = try #require(articles.last?["id"] as? String)
    #expect(await harness.run(["read", id]).code == .success)
    harness.server.route(
      "/v2/top-headlines", .fixture("top-headlines-2019-03-27-trimmed-nulls.json"))
    await harness.succeed(["headlines"], environment: ["NEWS_RETENTION_MAX": "1"])
    #expect(await harness.run(["show", id, "--offline"]).code == .usage)
    let unread = await harness.run(["unread", id])
    #expect(unread.code == .success, "\(unread.err)")
    #expect(unread.out.contains("(no longer stored)"))
    // The mark is gone now: the id names nothing any more.
    #expect(await harness.run(["unread", id]).code == .usage)
  }
}
