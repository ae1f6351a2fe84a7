import Foundation
import NewsCore
import TestSupport
import Testing

/// The query language on the command line (#43): `search <query>`, the bulk marks
/// (`read|unread|bookmark --where`, `read --older-than`), and a query's error with its caret.
@Suite("Queries on the command line")
struct QueryCommandTests {
  let harness: Harness

  init() throws {
    harness = try Harness()
    let base = harness.server.baseURL.absoluteString
    harness.server.route("/r.xml") { _ in
      let items = [
        ("Swift 6 released", "Ann Lee", "Mon, 16 Feb 2022 10:00:00 GMT", ["Programming"]),
        (
          "Rust in the kernel", "Bo Chen", "Sun, 15 Feb 2022 10:00:00 GMT",
          ["Programming", "Linux"]
        ),
        ("Swift and Rust compared", "Ann Lee", "Mon, 31 Jan 2022 10:00:00 GMT", []),
        ("Climate talks", "Cy Dee", "Wed, 16 Feb 2022 20:00:00 GMT", ["Tech policy"]),
      ].enumerated().map { index, item in
        "<item><title>\(item.0)</title><link>https://r.example/\(index)</link>"
          + "<author>\(item.1)</author><pubDate>\(item.2)</pubDate>"
          + item.3.map { "<category>\($0)</category>" }.joined() + "</item>"
      }.joined()
      return .json("<rss version=\"2.0\"><channel><title>R</title>\(items)</channel></rss>")
    }
    try harness.writeConfig(sources: #"{"name": "r", "url": "\#(base)/r.xml", "tags": ["tech"]}"#)
  }

  func run(_ arguments: [String]) async -> RunResult {
    await harness.run(arguments, environment: ["NEWS_COUNTS": "off", "NEWSAPI_KEY": nil])
  }

  /// The titles `search <query> --json` lists.
  func titles(_ query: String) async throws -> [String] {
    let result = await run(["search", query, "--json"])
    #expect(result.code == .success, "\(result.err)")
    return try ((result.json()["articles"] as? [[String: Any]]) ?? []).compactMap {
      $0["title"] as? String
    }
  }

  @Test("search takes the language: fields, states, tags, time, OR and NOT")
  func search() async throws {
    await harness.succeed(["feed"], environment: ["NEWSAPI_KEY": nil])
    #expect(try await titles("swift") == ["Swift 6 released", "Swift and Rust compared"])
    #expect(try await titles("author:\"ann lee\" -rust") == ["Swift 6 released"])
    #expect(
      try await titles("tag:tech climate OR kernel") == ["Climate talks", "Rust in the kernel"])
    // A tag every match has: only its sources' segments are read, the answer the same.
    #expect(try await titles("tag:tech swift") == ["Swift 6 released", "Swift and Rust compared"])
    #expect(try await titles("tag:sport swift").isEmpty)
    #expect(try await titles("date:2022-02-15..2022-02-16 -climate").count == 2)
    // Now is 2022-02-17T17:46:40Z in the harness.
    #expect(try await titles("age>10d") == ["Swift and Rust compared"])
  }

  @Test("category: searches the categories the feed filed each item under, not its source's tags")
  func category() async throws {
    await harness.succeed(["feed"], environment: ["NEWSAPI_KEY": nil])
    #expect(
      try await titles("category:programming") == ["Swift 6 released", "Rust in the kernel"])
    #expect(try await titles("category:linux swift").isEmpty)
    // A word of a category, as a field's words are matched: the source's tag is not one.
    #expect(try await titles("category:policy") == ["Climate talks"])
    #expect(try await titles("category:tech") == ["Climate talks"])
    #expect(try await titles("tag:tech -category:programming").count == 2)
    #expect(try await titles("category:/^linux$/") == ["Rust in the kernel"])
    let show = await run(["show", "r.example-1", "--json"])
    #expect(try show.json()["categories"] as? [String] == ["Programming", "Linux"])
    let text = await run(["show", "r.example-1"])
    #expect(text.out.contains("Filed under Programming, Linux\n"))
  }

  @Test("feed --where shows only the items the query matches, offline too")
  func feedWhere() async throws {
    await harness.succeed(["feed"], environment: ["NEWSAPI_KEY": nil])
    await harness.succeed(["read", "--where", "kernel"], environment: ["NEWSAPI_KEY": nil])
    let result = await run(["feed", "--offline", "--where", "author:lee OR is:read", "--json"])
    #expect(result.code == .success, "\(result.err)")
    let items = try (result.json()["items"] as? [[String: Any]]) ?? []
    #expect(
      Set(items.compactMap { $0["title"] as? String })
        == ["Swift 6 released", "Swift and Rust compared", "Rust in the kernel"])
    #expect(await run(["feed", "--where", "autor:x"]).code == .usage)
    // A source the options leave empty says why, not "no items".
    let text = await run(["feed", "--offline", "--where", "zeppelin"])
    #expect(text.out.contains("     nothing matches --where\n"), "\(text.out)")
    #expect(!text.out.contains("no items"))
    await harness.succeed(["read", "--all"], environment: ["NEWSAPI_KEY": nil])
    let unread = await run(["feed", "--offline", "--unread"])
    #expect(unread.out.contains("     nothing unread\n"), "\(unread.out)")
    #expect(!unread.out.contains("no items"))
  }

  @Test("read --where marks exactly what search lists; --dry-run changes nothing")
  func readWhere() async throws {
    await harness.succeed(["feed"], environment: ["NEWSAPI_KEY": nil])
    let query = "swift OR kernel"
    let listed = try await titles(query)
    let dry = await run(["read", "--where", query, "--dry-run"])
    #expect(dry.out == "would mark read: 3 articles (of 3 matching); nothing changed (--dry-run)\n")
    #expect(try await titles("is:read").isEmpty)
    let marked = await run(["read", "--where", query])
    #expect(marked.code == .success, "\(marked.err)")
    #expect(marked.out == "marked read: 3 articles (of 3 matching)\n")
    #expect(Set(try await titles("is:read")) == Set(listed))
    #expect(try await titles("is:unread") == ["Climate talks"])
    // Again: nothing more to change.
    #expect(
      await run(["read", "--where", query]).out == "marked read: 0 articles (of 3 matching)\n")
    let unread = await run(["unread", "--where", "kernel"])
    #expect(unread.out == "marked unread: 1 article (of 1 matching)\n")
    let bookmarked = await run(["bookmark", "--where", "author:lee"])
    #expect(bookmarked.out == "bookmarked: 2 articles (of 2 matching)\n")
    #expect(try await titles("is:bookmarked").count == 2)
  }

  @Test("read --older-than marks what was published longer ago, of --source when given")
  func olderThan() async throws {
    await harness.succeed(["feed"], environment: ["NEWSAPI_KEY": nil])
    let dry = await run(["read", "--older-than", "2d", "--source", "r", "--dry-run"])
    #expect(dry.out.hasPrefix("would mark read: 2 articles"), "\(dry.out)")
    let none = await run(["read", "--older-than", "2d", "--source", "other"])
    #expect(none.code == .usage, "\(none.err)")
    let bad = await run(["read", "--older-than", "soon"])
    #expect(bad.code == .usage)
    #expect(bad.err.contains("--older-than takes a duration"), "\(bad.err)")
  }

  @Test("a query that cannot be read is exit 64, with the column and a caret under it")
  func error() async throws {
    let result = await run(["search", "swift autor:ann"])
    #expect(result.code == .usage)
    #expect(
      result.err
        == "news: query: unknown field 'autor' (did you mean 'author'?); fields are title, "
        + "author, text, url, category, source, tag, is, has, date, age at column 7\n"
        + "  swift autor:ann\n        ^\n")
    let bulk = await run(["read", "--where", "(swift"])
    #expect(bulk.code == .usage)
    #expect(bulk.err.hasPrefix("news: query: '(' without its ')' at column 1"))
    #expect(await run(["read", "3", "--where", "x"]).code == .usage)
    #expect(await run(["unread", "--dry-run"]).code == .usage)
  }
}
