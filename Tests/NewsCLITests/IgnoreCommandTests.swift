import FeedParsing
import Foundation
import NewsCore
import TestSupport
import Testing

@Suite("news ignore, and what the rules hide")
struct IgnoreCommandTests {
  let harness: Harness
  var configPath: String { harness.home.path("news/config.json") }

  init() throws {
    harness = try Harness()
    for name in ["a", "b", "c"] {
      harness.server.route("/feed/\(name).json", .fixture("source_\(name).readme-sample.json"))
    }
  }

  func titles(_ arguments: [String] = []) async throws -> [String] {
    let result = await harness.run(["feed", "--json"] + arguments)
    #expect(result.code == .success, "\(result.err)")
    let items = try #require(try result.json()["items"] as? [[String: Any]])
    return items.compactMap { $0["title"] as? String }
  }

  @Test("add, list, remove: config.json's ignore list, edited in place")
  func addListRemove() async throws {
    let added = await harness.run(["ignore", "add", "wow"])
    #expect(added.code == .success)
    #expect(added.out == "added rule 1: title:wow\n")
    let second = await harness.run(["ignore", "add", "^latest", "--regex", "--source", "c"])
    #expect(second.out == "added rule 2: title:/^latest/ source:c\n")
    #expect(
      try String(contentsOfFile: configPath, encoding: .utf8)
        == """
        {
          "ignore": [
            {"title":"wow"},
            {"title":"^latest","regex":true,"source":"c"}
          ]
        }

        """)
    let listed = await harness.run(["ignore"])
    #expect(listed.out == "1. title:wow\n2. title:/^latest/ source:c\n")
    let json = try #require(
      try await harness.run(["ignore", "list", "--json"]).json()["rules"] as? [[String: Any]])
    #expect(json.map { $0["field"] as? String } == ["title", "title"])
    #expect(json[1]["regex"] as? Bool == true)
    #expect(json[1]["source"] as? String == "c")
    #expect(json[0]["source"] is NSNull)

    let removed = await harness.run(["ignore", "remove", "1"])
    #expect(removed.out == "removed rule 1: title:wow\n")
    #expect(await harness.run(["ignore"]).out == "1. title:/^latest/ source:c\n")
    #expect(harness.server.requests.isEmpty)
  }

  @Test("a rule written as a query hides what search lists for it; word rules read as queries")
  func queryRule() async throws {
    let before = try await titles()
    #expect(before.count > 2)
    let query = "news OR title:\"latest\""
    let searched = try #require(
      try await harness.run(["search", query, "--json"]).json()["articles"] as? [[String: Any]])
    #expect(!searched.isEmpty)
    let added = await harness.run(["ignore", "add", "--query", query])
    #expect(added.out == "added rule 1: \(query)\n", "\(added.err)")
    #expect(
      try String(contentsOfFile: configPath, encoding: .utf8).contains(
        #"{"query":"news OR title:\"latest\""}"#))
    let after = try await titles()
    #expect(Set(after) == Set(before).subtracting(searched.compactMap { $0["title"] as? String }))
    // A word rule and a query of the same words hide the same items.
    _ = await harness.run(["ignore", "remove", "1"])
    _ = await harness.run(["ignore", "add", "news", "--in", "text"])
    let byWords = try await titles()
    _ = await harness.run(["ignore", "remove", "1"])
    _ = await harness.run(["ignore", "add", "--query", "news"])
    #expect(try await titles() == byWords)
    #expect(await harness.run(["ignore"]).out == "1. news\n")
  }

  @Test("feed: ignored items are not shown or counted; --show-ignored shows them marked")
  func feedHides() async throws {
    #expect(try await titles() == ["Interesting News!", "WOW", "Latest article"])
    #expect(await harness.run(["ignore", "add", "wow"]).code == .success)
    #expect(
      await harness.run(["ignore", "add", "^latest", "--regex", "--source", "c"]).code == .success)
    #expect(
      await harness.run(["ignore", "add", "interesting", "--source", "b"]).code == .success)
    #expect(try await titles() == ["Interesting News!"])
    let text = await harness.run(["feed"])
    #expect(text.out.hasPrefix("Feed · 1 item from 3 sources · 1 unread\n"))
    #expect(!text.out.contains("WOW"))
    // Each source says how many it left out; one with nothing left says why.
    #expect(
      text.out.contains(
        "Source B (cached, just now, 1 ignored)\n     every item ignored (--show-ignored shows them)"
      ), "\(text.out)")

    let shown = await harness.run(["feed", "--json", "--show-ignored"])
    let items = try #require(try shown.json()["items"] as? [[String: Any]])
    #expect(items.map { $0["ignored"] as? Bool } == [false, true, true])
    let marked = await harness.run(["feed", "--show-ignored"])
    #expect(marked.out.contains("[ignored] WOW"))
    #expect(!marked.out.contains("ignored)"), "none is left out")
    #expect(marked.out.contains("· 1 unread"))
    // Without --show-ignored the ITEM has no "ignored" (the contract of news feed --json).
    let plain = try #require(
      try await harness.run(["feed", "--json"]).json()["items"] as? [[String: Any]])
    #expect(plain[0]["ignored"] == nil)
  }

  @Test("headlines hide them too; search and bookmarks show everything")
  func listsAndSearch() async throws {
    harness.server.route("/articles", .fixture("articles.json"))
    let all = try #require(
      try await harness.run(["headlines", "--from", "articles", "--json"]).json()["articles"]
        as? [[String: Any]])
    let first = try #require(all.first?["title"] as? String)
    #expect(await harness.run(["ignore", "add", first]).code == .success)
    let after = try #require(
      try await harness.run(["headlines", "--from", "articles", "--json", "--offline"]).json()[
        "articles"] as? [[String: Any]])
    #expect(after.count == all.count - 1)
    #expect(!after.contains { $0["title"] as? String == first })
    let found = try #require(
      try await harness.run(["search", first, "--json"]).json()["articles"] as? [[String: Any]])
    #expect(found.contains { $0["title"] as? String == first })
  }

  @Test(
    "mistakes are usage errors, and config.json is not written",
    arguments: [
      (["ignore", "add", "(", "--regex"], "not a regular expression"),
      (["ignore", "add", "x", "--source", "nope"], "no source named 'nope'"),
      (["ignore", "add"], "give <pattern> or --query <query>"),
      (["ignore", "add", "--query", "autor:x"], "unknown field 'autor'"),
      (["ignore", "add", "--query", "x", "--regex"], "--query takes no --in and no --regex"),
      (["ignore", "remove", "3"], "there is no rule 3: there are no rules"),
      (["ignore", "remove", "x"], "<n> expects a whole number 1 or more, got 'x'"),
      (["ignore", "list", "--regex"], "--regex only applies to 'news ignore add'"),
      (
        ["ignore", "add", "x", "--json"],
        "--json only applies to 'news ignore' and 'news ignore list'"
      ),
      (["ignore", "add", "x", "--in", "body"], "--in"),
      (
        ["ignore", "add", #"title =~ "sponsored""#],
        #"'title =~ "sponsored"' is a newsboat filter, not words; as a query it is "#
          + "title:/sponsored/: news ignore add --query 'title:/sponsored/'"
      ),
      (
        ["ignore", "add", "unread_count > 0"],
        "'unread_count > 0' is a newsboat filter, not words, and has no query of news's: "
          + "'unread_count >' has no counterpart in news's queries (docs/queries.md); "
          + "write one with --query"
      ),
      (
        ["ignore", "add", #"feedtitle = "LWN""#],
        #"'feedtitle = "LWN"' is a newsboat filter, not words, and has no query"#
      ),
      (
        ["ignore", "add", #"title:"item""#],
        #"'title:"item"' is a query, not words (as words, its quotes and colons would have to "#
          + #"be in the title): news ignore add --query 'title:"item"'"#
      ),
      (
        ["ignore", "add", #""sponsored post""#, "--in", "text"],
        "would have to be in the text): news ignore add --query"
      ),
    ])
  func mistakes(arguments: [String], message: String) async throws {
    let result = await harness.run(arguments)
    #expect(result.code == .usage)
    #expect(result.err.contains(message), "\(result.err)")
    #expect(!FileManager.default.fileExists(atPath: configPath))
  }
}
