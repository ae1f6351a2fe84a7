import FeedParsing
import Foundation
import NewsCore
import TestSupport
import Testing

@Suite("saved searches: sources answered from the store")
struct SavedSearchTests {
  let harness: Harness
  var configPath: String { harness.home.path("news/config.json") }

  init() throws {
    harness = try Harness()
    for name in ["a", "b", "c"] {
      harness.server.route("/feed/\(name).json", .fixture("source_\(name).readme-sample.json"))
    }
  }

  @Test("add --search: a source of the stored matches, in feed --source, sources and JSON")
  func savedSearch() async throws {
    #expect(await harness.run(["feed"]).code == .success)
    let added = await harness.run(["sources", "add", "--search", "news", "--name", "news-only"])
    #expect(added.code == .success)
    #expect(added.out == "added: news-only (saved search: news)\n")
    #expect(
      try String(contentsOfFile: configPath, encoding: .utf8).contains(
        #"{"name":"news-only","search":"news"}"#))
    let requests = harness.server.requests.count

    let feed = await harness.run(["feed", "--source", "news-only", "--json"])
    #expect(feed.code == .success, "\(feed.err)")
    let items = try #require(try feed.json()["items"] as? [[String: Any]])
    // "Interesting News!" from a; the item keeps its id and its source.
    #expect(items.map { $0["title"] as? String } == ["Interesting News!"])
    #expect(items.first?["source"] as? String == "a")
    #expect(items.first?["read"] as? Bool == false)
    #expect(harness.server.requests.count == requests, "nothing is fetched for it")
    // One that matches nothing says so.
    await harness.succeed(["sources", "add", "--search", "zebra", "--name", "zebra"])
    let none = await harness.run(["feed", "--source", "zebra"])
    #expect(none.out.contains("     nothing stored matches its search\n"), "\(none.out)")

    // Not in the plain feed (it repeats the others), not fetched by sync.
    let plain = try #require(
      try await harness.run(["feed", "--json"]).json()["sources"] as? [[String: Any]])
    #expect(plain.map { $0["name"] as? String } == ["a", "b", "c"])

    let listed = try #require(
      try await harness.run(["sources", "--json"]).json()["sources"] as? [[String: Any]])
    let search = try #require(listed.first { $0["name"] as? String == "news-only" })
    #expect(search["format"] as? String == "search")
    #expect(search["search"] as? String == "news")
    #expect(listed[0]["search"] is NSNull)
    let text = await harness.run(["sources"]).out
    #expect(text.contains("search: news"))
    // Answered from the store, never fetched: not said to be "never fetched".
    #expect(text.contains("search · answered every run"), "\(text)")

    // Reading the item marks it read for the search's list too.
    #expect(await harness.run(["read", "1"]).code == .success)
    let again = try #require(
      try await harness.run(["feed", "--source", "news-only", "--json"]).json()["items"]
        as? [[String: Any]])
    #expect(again.first?["read"] as? Bool == true)
  }

  @Test("named beside a feed never fetched, a saved search finds what that run brought")
  func searchAfterFetch() async throws {
    await harness.succeed(["sources", "add", "--search", "news", "--name", "news-only"])
    let feed = await harness.run(["feed", "--source", "a,news-only"])
    #expect(feed.code == .success, "\(feed.err)")
    // One link one item: under a, naming the search (not a itself) as also listing it; the
    // search's block says where its item went.
    #expect(feed.out.contains("also in news-only\n"), "\(feed.out)")
    #expect(!feed.out.contains("also in a\n"), "\(feed.out)")
    #expect(
      feed.out.contains("     every item is listed above, under another source\n"),
      "\(feed.out)")
    let json = try #require(
      try await harness.run(["feed", "--source", "a,news-only", "--json"]).json()["items"]
        as? [[String: Any]])
    let shared = try #require(json.first { $0["title"] as? String == "Interesting News!" })
    #expect(shared["sources"] as? [String] == ["a", "news-only"])
  }

  @Test("a saved search of the language lists what search lists, unread state included")
  func savedQuery() async throws {
    #expect(await harness.run(["feed"]).code == .success)
    let query = "news OR story -interesting"
    let searched = try #require(
      try await harness.run(["search", query, "--json"]).json()["articles"] as? [[String: Any]])
    await harness.succeed(["sources", "add", "--search", query, "--name", "q"])
    let feed = try #require(
      try await harness.run(["feed", "--source", "q", "--json"]).json()["items"] as? [[String: Any]]
    )
    #expect(
      Set(feed.compactMap { $0["id"] as? String })
        == Set(searched.compactMap { $0["id"] as? String }))
    #expect(!feed.isEmpty)
    // A query of state: read one, and it leaves the unread list.
    await harness.succeed(["sources", "add", "--search", "is:unread (\(query))", "--name", "u"])
    let before = try #require(
      try await harness.run(["feed", "--source", "u", "--json"]).json()["items"] as? [[String: Any]]
    )
    await harness.succeed(["read", "1"])
    let after = try #require(
      try await harness.run(["feed", "--source", "u", "--json"]).json()["items"] as? [[String: Any]]
    )
    #expect(after.count == before.count - 1)
  }

  @Test(
    "mistakes: no words, a URL or a --ttl with --search, a taken name",
    arguments: [
      (["sources", "add", "--search", " "], "--search needs a query"),
      (["sources", "add", "https://e.example/", "--search", "x"], "takes no URL"),
      (["sources", "add", "--search", "x", "--ttl", "5"], "takes no URL and no --ttl"),
      (["sources", "add", "--search", "x", "--name", "a"], "exists already"),
      (["sources", "remove", "--search", "x"], "--search only applies to 'news sources add'"),
      (["sources", "add", "--search", "news autor:x"], "unknown field 'autor'"),
    ])
  func mistakes(arguments: [String], message: String) async throws {
    let result = await harness.run(arguments)
    #expect(result.code == .usage)
    #expect(result.err.contains(message), "\(result.err)")
  }

  @Test(
    "config.json: a saved search has words, and no url, format or mapping",
    arguments: [
      (#"{"name": "s", "search": ""}"#, "search"),
      (#"{"name": "s", "search": "x", "url": "https://e.example/"}"#, "url"),
      (#"{"name": "s", "search": "x", "format": "rss"}"#, "format"),
      (#"{"name": "a", "search": "x"}"#, "search"),
      (#"{"name": "s", "search": "news (open"}"#, "search"),
    ])
  func configFile(entry: String, field: String) async throws {
    try FileManager.default.createDirectory(
      atPath: harness.home.path("news"), withIntermediateDirectories: true)
    try #"{"sources": [\#(entry)]}"#.write(toFile: configPath, atomically: true, encoding: .utf8)
    let result = await harness.run(["sources"])
    #expect(result.code == .configuration)
    #expect(result.err.contains("field '\(field)'"), "\(result.err)")
  }
}
