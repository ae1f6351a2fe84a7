import FeedParsing
import Foundation
import NewsCore
import TestSupport
import Testing

@Suite("Lists: unique ids, malformed items skipped, description lines")
struct ListCorrectnessTests {
  let harness: Harness

  init() throws { harness = try Harness() }

  func newsAPI(_ articles: [(title: String, url: String)]) -> LoopbackServer.Response {
    let items = articles.map { #"{"title":"\#($0.title)","url":"\#($0.url)"}"# }
    return .json(
      #"{"status":"ok","totalResults":\#(articles.count),"articles":[\#(items.joined(separator: ","))]}"#
    )
  }

  @Test("the same URL twice is one article; show <n> opens item n of the list printed")
  func duplicateURLs() async throws {
    harness.server.route(
      "/v2/top-headlines",
      newsAPI([
        ("First", "https://a.com/x"), ("Again", "https://a.com/x"), ("Third", "https://a.com/y"),
      ]))
    let list = await harness.run(["headlines", "--json"])
    let titles = try #require(try list.json()["articles"] as? [[String: Any]]).map {
      $0["title"] as? String
    }
    #expect(titles == ["First", "Third"])
    let second = await harness.run(["show", "2", "--offline", "--json"])
    #expect(try second.json()["title"] as? String == "Third")
  }

  @Test(
    "duplicate ids from the articles API and BBC headlines are listed once",
    arguments: [
      (
        "articles", "/articles",
        #"[{"id":1,"title":"One"},{"id":1,"title":"One again"},{"id":2,"title":"Two"}]"#
      ),
      (
        "bbc", "/bbc.json",
        #"{"headlines":[{"headline":"Same"},{"headline":"Same"},{"headline":"Other"}]}"#
      ),
    ])
  func duplicateIDs(provider: String, path: String, body: String) async throws {
    harness.server.route(path, .json(body))
    let list = await harness.run(["headlines", "--from", provider, "--json"])
    let articles = try #require(try list.json()["articles"] as? [[String: Any]])
    let ids = articles.compactMap { $0["id"] as? String }
    #expect(ids.count == 2)
    #expect(Set(ids).count == 2)
    let second = await harness.run(["show", "2", "--json"])
    #expect(try second.json()["id"] as? String == ids[1])
  }

  @Test(
    "a malformed item is skipped with one warning; the rest is shown, exit 0",
    arguments: [
      (
        "articles", "/articles",
        #"[{"id":1,"title":"A"},{"title":"no id"},{"id":3,"title":"C","release_date":"1/1/2020"}]"#,
        "news: warning: the articles API: skipped 1 of 3 items (missing field '[1].id')\n"
      ),
      (
        "bbc", "/bbc.json",
        #"{"headlines":[{"headline":"A","updated":"yesterday"},{"headline":"B","updated":1}]}"#,
        "news: warning: the bbc API: skipped 1 of 2 items (field 'headlines[0].updated' is not a number)\n"
      ),
    ])
  func malformedItem(provider: String, path: String, body: String, warning: String) async throws {
    harness.server.route(path, .json(body))
    let result = await harness.run(["headlines", "--from", provider])
    #expect(result.code == .success)
    #expect(result.err == warning)
    #expect(!result.out.contains("no id"))
  }

  @Test("an answer with no usable item is an error, and the stored list stays the last list")
  func noUsableItem() async throws {
    harness.server.route("/articles", .json(#"[{"id":"x"}]"#))
    let first = await harness.run(["headlines", "--from", "articles"])
    #expect(first.code == .dataError)
    #expect(first.err.contains("no usable article (item x has no title)"))

    harness.server.route("/articles", .json(#"[{"id":1,"title":"Kept"}]"#))
    #expect(await harness.run(["headlines", "--from", "articles"]).code == .success)
    harness.server.route("/articles", .json(#"[{"id":"x"}]"#))
    let after = await harness.run(["headlines", "--from", "articles", "--json"])
    #expect(after.code == .success)
    #expect(try after.json()["stale"] as? Bool == true)
    let shown = await harness.run(["show", "1", "--json"])
    #expect(try shown.json()["title"] as? String == "Kept")
  }

  @Test("the articles list shows the first two lines of a description, its own breaks counted")
  func descriptionLines() async throws {
    harness.server.route(
      "/articles",
      .json(#"[{"id":1,"title":"T","description":"line one\nline two\nline three"}]"#))
    let result = await harness.run(["headlines", "--from", "articles"])
    #expect(result.out.contains("\n   line one\n   line two…\n"))
    #expect(!result.out.contains("line three"))
  }
}

@Suite("Small things a user trips over")
struct SmallThingsTests {
  let harness: Harness

  init() throws { harness = try Harness() }

  @Test("show accepts --refresh, as README promises")
  func showRefresh() async throws {
    harness.server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    harness.server.route(prefix: "/info/likes/") { _ in .json("1") }
    harness.server.route(prefix: "/info/comments/") { _ in .json("2") }
    await harness.succeed(["headlines"])
    let result = await harness.run(["show", "1", "--refresh", "--json"])
    #expect(result.code == .success)
    #expect(try result.json()["likes"] as? Int == 1)
    #expect(await harness.run(["show", "1", "--refresh", "--offline"]).code == .usage)
  }

  @Test(
    "show of a URL with nothing after the scheme is a usage error",
    arguments: ["http://", "https:///"])
  func emptyURL(reference: String) async {
    let result = await harness.run(["show", reference])
    #expect(result.code == .usage)
    #expect(result.err.contains("is not an article's URL"))
  }

  @Test("feed --offline --limit 1 labels the sources the limit cut, not 'no items'")
  func feedLimitLabels() async throws {
    for name in ["a", "b", "c"] {
      harness.server.route("/feed/\(name).json", .fixture("source_\(name).readme-sample.json"))
    }
    await harness.succeed(["feed"])
    let result = await harness.run(["feed", "--offline", "--limit", "1"])
    #expect(result.code == .success)
    #expect(!result.out.contains("no items"))
    #expect(result.out.components(separatedBy: "not shown (--limit)").count == 3)
  }
}

@Suite("The API key and redirects, end to end")
struct RedirectCommandTests {
  @Test("newsapi.org redirecting to another server: refused, naming both; the key never leaves")
  func keyStaysHome() async throws {
    let harness = try Harness()
    let elsewhere = try LoopbackServer()
    elsewhere.route("/v2/top-headlines", .json(#"{"status":"ok","articles":[]}"#))
    harness.server.route(
      "/v2/top-headlines",
      .redirect(307, to: elsewhere.baseURL.absoluteString + "/v2/top-headlines"))
    let result = await harness.run(["headlines"])
    #expect(result.code == .unavailable)
    #expect(
      result.err
        == "news: 127.0.0.1:\(harness.server.port) redirected to 127.0.0.1:\(elsewhere.port); "
        + "not followed because it leads to another server, and the request carries a credential\n")
    #expect(elsewhere.requests.isEmpty)
    #expect(!result.err.contains("test-key-123"))
  }
}
