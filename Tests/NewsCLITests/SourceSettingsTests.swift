import FeedParsing
import Foundation
import NewsCore
import TestSupport
import Testing

@Suite("per-source settings: news sources set, --tag, maxItems, enabled")
struct SourceSettingsTests {
  let harness: Harness
  var configPath: String { harness.home.path("news/config.json") }

  init() throws {
    harness = try Harness()
    for name in ["a", "b", "c"] {
      harness.server.route("/feed/\(name).json", .fixture("source_\(name).readme-sample.json"))
    }
    harness.server.route("/atom.xml", .fixture("feeds/atom10_1.xml"))
  }

  func config() throws -> String { try String(contentsOfFile: configPath, encoding: .utf8) }

  /// The feed's sources and their item counts, from `news feed --json` with `arguments`.
  func feed(_ arguments: [String] = []) async throws -> [String: Int] {
    let result = await harness.run(["feed", "--json"] + arguments)
    #expect(result.code == .success, "\(result.err)")
    let items = try #require(try result.json()["items"] as? [[String: Any]])
    var counts: [String: Int] = [:]
    for item in items { counts[item["source"] as? String ?? "?", default: 0] += 1 }
    let sources = try #require(try result.json()["sources"] as? [[String: Any]])
    for source in sources { counts[source["name"] as? String ?? "?", default: 0] += 0 }
    return counts
  }

  @Test("--hide leaves a source out of the plain feed, not out of its tag's list; --show undoes it")
  func hide() async throws {
    let base = harness.server.baseURL.absoluteString
    #expect(
      await harness.run(["sources", "add", base + "/atom.xml", "--name", "atom"]).code == .success)
    #expect(
      await harness.run(["sources", "set", "atom", "--hide", "--tags", "t"]).code == .success)
    #expect(try config().contains(#""hidden": true"#))
    #expect(try await feed()["atom"] == nil, "not in the plain feed")
    #expect(try await feed(["--tag", "t"])["atom"] == 3, "in its tag's list")
    let listed = await harness.run(["sources"]).out
    #expect(listed.contains("hidden"), "\(listed)")
    let both = await harness.run(["sources", "set", "atom", "--hide", "--show"])
    #expect(both.code == .usage)
    #expect(await harness.run(["sources", "set", "atom", "--show"]).code == .success)
    #expect(try !config().contains("hidden"))
    #expect(try await feed()["atom"] == 3)
  }

  @Test("the plain feed fetches a hidden source when due, not listing it; its failure is said")
  func hiddenFetched() async throws {
    let base = harness.server.baseURL.absoluteString
    // Fetched nowhere yet: written as an import writes it, with a saved search over it.
    try FileManager.default.createDirectory(
      atPath: harness.home.path("news"), withIntermediateDirectories: true)
    try
      (#"{"sources": [{"name": "atom", "url": "\#(base)/atom.xml", "ttl": 0, "#
      + #""hidden": true}, {"name": "tests", "search": "atom"}]}"#)
      .write(toFile: configPath, atomically: true, encoding: .utf8)
    #expect(try await feed()["atom"] == nil, "not listed")
    #expect(harness.server.requests(to: "/atom.xml").count == 1, "but fetched")
    let found = try await feed(["--source", "tests"])
    #expect(found["atom"] == 1, "its item about Atom found by the search: \(found)")
    // Failing: said in the plain feed, as a warning (the run still succeeds).
    harness.server.route("/atom.xml", LoopbackServer.Response(status: 404))
    let failed = await harness.run(["feed"])
    #expect(failed.code == .success)
    #expect(failed.err.contains("source atom answered HTTP 404"), "\(failed.err)")
    #expect(!failed.out.contains("atom"), "\(failed.out)")
  }

  @Test("set writes the settings in place; sources shows them; feed applies them; unset restores")
  func setAndApply() async throws {
    let base = harness.server.baseURL.absoluteString
    #expect(
      await harness.run(["sources", "add", base + "/atom.xml", "--name", "atom"]).code == .success)
    let added = try config()
    #expect(try await feed()["atom"] == 3)

    let set = await harness.run([
      "sources", "set", "atom", "--max-items", "2", "--tags", "tech,daily", "--ttl", "2m",
    ])
    #expect(set.code == .success)
    #expect(set.out == "set: atom\n")
    #expect(
      try config().contains(
        #"{"name":"atom","url":"\#(base)/atom.xml","title":"test atom","site":"http://example.com/", "ttl": 120, "maxItems": 2, "tags": ["tech","daily"]}"#
      ))
    let listed = try #require(
      try await harness.run(["sources", "--json", "--tag", "tech"]).json()["sources"]
        as? [[String: Any]])
    #expect(listed.count == 1)
    #expect(listed[0]["name"] as? String == "atom")
    #expect(listed[0]["maxItems"] as? Int == 2)
    #expect(listed[0]["tags"] as? [String] == ["tech", "daily"])
    #expect(listed[0]["ttl"] as? Int == 120)
    #expect(listed[0]["enabled"] as? Bool == true)
    // At most 2 items, from the store's next refresh on; --tag picks the source out.
    #expect(try await feed(["--refresh"])["atom"] == 2)
    #expect(try await feed(["--tag", "daily"]) == ["atom": 2])
    // Both filter: of the sources named, those filed under the tag; none left is a usage error.
    #expect(try await feed(["--source", "a,atom", "--tag", "daily", "--offline"]) == ["atom": 2])
    let neither = await harness.run(["feed", "--source", "a", "--tag", "daily"])
    #expect(neither.code == .usage)
    #expect(
      neither.err.contains("--source and --tag leave no source: a is not filed under 'daily'"),
      "\(neither.err)")

    // Disabled: left out of the feed (not even asked for), still named by --source.
    #expect(await harness.run(["sources", "set", "atom", "--disable"]).code == .success)
    let before = harness.server.requests(to: "/atom.xml").count
    #expect(try await feed(["--refresh"])["atom"] == nil)
    #expect(harness.server.requests(to: "/atom.xml").count == before)
    #expect(try await feed(["--source", "atom"])["atom"] == 2)
    let text = await harness.run(["sources"])
    #expect(text.out.contains("at most 2 items · tags tech, daily · disabled"))

    // Settings removed: the entry is as `add` wrote it but for the ttl.
    let unset = await harness.run([
      "sources", "set", "atom", "--enable", "--max-items", "0", "--tags", "none",
    ])
    #expect(unset.code == .success)
    #expect(
      try config()
        == added.replacingOccurrences(
          of: #""site":"http://example.com/"}"#, with: #""site":"http://example.com/", "ttl": 120}"#
        ))
    #expect(try await feed(["--refresh"])["atom"] == 3)
  }

  @Test("add writes its settings into the new entry, and its first answer keeps --max-items")
  func addWithSettings() async throws {
    let base = harness.server.baseURL.absoluteString
    let added = await harness.run([
      "sources", "add", base + "/atom.xml", "--name", "atom", "--tags", "tech,daily",
      "--max-items", "2", "--feed-title", "Atoms", "--full-text", "--hide",
    ])
    #expect(added.code == .success, "\(added.err)")
    #expect(added.out.hasPrefix("added: atom (\(base)/atom.xml) · Atoms · 2 items"), "\(added.out)")
    let written = try config()
    #expect(
      written.contains(
        #"{"name":"atom","url":"\#(base)/atom.xml","title":"Atoms","site":"http://example.com/", "maxItems": 2, "tags": ["tech","daily"], "fullText": true, "hidden": true}"#
      ), "\(written)")
    // Kept at once, two of its three items, before any refresh.
    #expect(try await feed(["--tag", "tech", "--offline"])["atom"] == 2)
    #expect(await harness.run(["sources", "set", "atom", "--max-items", "1"]).code == .success)
    let listed = await harness.run(["sources"]).out
    #expect(listed.contains("Atoms · detected · at most 1 item · tags tech, daily"), "\(listed)")
    #expect(
      await harness.run(["sources", "add", "--search", "climate", "--tags", "x"]).code == .success)
    #expect(try config().contains(#"{"name":"climate","search":"climate", "tags": ["x"]}"#))
    // Subscribed already: said, and the entry left as it is.
    let again = await harness.run(["sources", "add", base + "/atom.xml", "--tags", "other"])
    #expect(
      again.out == "already subscribed: atom (\(base)/atom.xml)\n"
        + "its settings are left as they are: news sources set atom changes them\n", "\(again.out)")
    #expect(try !config().contains("other"))
    let account = await harness.run([
      "sources", "add", base + "/atom.xml", "--account", "home", "--tags", "x",
    ])
    #expect(account.code == .usage)
    #expect(account.err.contains("--tags does not apply with --account"), "\(account.err)")
  }

  @Test("--url moves a source: fetched from there next, its articles and read state kept")
  func moveURL() async throws {
    let base = harness.server.baseURL.absoluteString
    await harness.succeed(["sources", "add", base + "/atom.xml", "--name", "atom"])
    await harness.succeed(["read", "--all", "--source", "atom"])
    harness.server.route("/moved/atom.xml", .fixture("feeds/atom10_1.xml"))
    let moved = await harness.run(["sources", "set", "atom", "--url", base + "/moved/atom.xml"])
    #expect(moved.code == .success, "\(moved.err)")
    #expect(try config().contains(#""url":"\#(base)/moved/atom.xml""#))
    let unread = try #require(
      try await harness.run(["feed", "--source", "atom", "--json"]).json()["items"]
        as? [[String: Any]])
    #expect(unread.count == 3 && unread.allSatisfy { $0["read"] as? Bool == true })
    #expect(harness.server.requests(to: "/moved/atom.xml").count == 1)
    // Failing run after run at an address, it is left alone; moved, it is asked at once.
    harness.server.route("/broken.xml", .json("", status: 500))
    await harness.succeed(["sources", "set", "atom", "--url", base + "/broken.xml"])
    for _ in 0..<2 { _ = await harness.run(["feed", "--source", "atom", "--refresh"]) }
    let failing = await harness.run(["feed", "--source", "atom"])
    #expect(failing.err.contains("failing run after run"), "\(failing.err)")
    harness.server.route("/third.xml", .fixture("feeds/atom10_1.xml"))
    await harness.succeed(["sources", "set", "atom", "--url", base + "/third.xml"])
    await harness.succeed(["feed", "--source", "atom"])
    #expect(harness.server.requests(to: "/third.xml").count == 1)
    // Another source's address, a saved search's, or no URL: refused, nothing written.
    await harness.succeed(["sources", "add", "--search", "x", "--name", "saved"])
    let before = try config()
    for (arguments, words) in [
      (["atom", "--url", base + "/feed/a.json"], "is subscribed already, as 'a'"),
      (["saved", "--url", base + "/x.xml"], "'saved' has no address to change"),
      (["atom", "--url", "file:///etc/passwd"], "is not an http:// or https:// URL"),
      (["bbc", "--url", base + "/x.xml"], "'bbc' is a provider"),
    ] {
      let refused = await harness.run(["sources", "set"] + arguments)
      #expect(refused.code == .usage)
      #expect(refused.err.contains(words), "\(refused.err)")
    }
    #expect(try config() == before)
  }

  @Test("a built-in source gets an entry of its own holding its settings")
  func builtIn() async throws {
    #expect(await harness.run(["sources", "set", "b", "--max-items", "1"]).code == .success)
    #expect(try config().contains(#"{"name":"b", "maxItems": 1}"#))
    let listed = try #require(
      try await harness.run(["sources", "--json"]).json()["sources"] as? [[String: Any]])
    let feeds = listed.filter { $0["format"] as? String != "provider" }
    #expect(feeds.map { $0["maxItems"] as? Int } == [nil, 1, nil])
  }

  @Test(
    "--feed-title names it for exports and apps; \"\" gives the feed's own back; a provider takes none"
  )
  func title() async throws {
    let base = harness.server.baseURL.absoluteString
    #expect(
      await harness.run(["sources", "add", base + "/atom.xml", "--name", "atom"]).code == .success)
    func listed() async throws -> [String: Any] {
      let sources = try #require(
        try await harness.run(["sources", "--json"]).json()["sources"] as? [[String: Any]])
      return try #require(sources.first { $0["name"] as? String == "atom" })
    }
    #expect(try await listed()["title"] as? String == "test atom", "the feed's own, from add")
    #expect(
      await harness.run(["sources", "set", "atom", "--feed-title", "Atom \u{1B}[1mTests"]).code
        == .success)
    let written = try config()
    #expect(written.contains(#""title":"Atom Tests""#), "\(written)")
    #expect(try await listed()["title"] as? String == "Atom Tests")
    #expect(await harness.run(["sources"]).out.contains("Atom Tests · detected"))
    #expect(
      await harness.run(["sources", "export"]).out.contains(
        #"text="Atom Tests" title="Atom Tests""#))
    #expect(await harness.run(["sources", "set", "atom", "--feed-title", ""]).code == .success)
    #expect(!(try config().contains(#""title""#)))
    // Without a title of its own, the feed's own, as its last answer gave it.
    #expect(try await listed()["title"] as? String == "test atom")
    #expect(
      await harness.run(["sources", "export"]).out.contains(#"text="test atom" title="test atom""#))
    let provider = await harness.run(["sources", "set", "bbc", "--feed-title", "BBC"])
    #expect(provider.code == .usage)
  }

  @Test(
    "mistakes are usage errors, and nothing is written",
    arguments: [
      (["sources", "set", "nope", "--ttl", "1"], "no source named 'nope'"),
      (
        ["sources", "set", "a", "--ttl", "soon"],
        "--ttl expects whole seconds from 0 to 31536000, or a time such as 30m, 2h or 1d; got 'soon'"
      ),
      (["sources", "set", "a"], "'set' needs a setting"),
      (["sources", "--tag", "nope"], "no source is tagged 'nope'; no source has tags"),
      (["feed", "--tag", "nope"], "no source is tagged 'nope'"),
      (["sources", "set", "a", "--enable", "--disable"], "--enable and --disable contradict"),
      (
        ["sources", "remove", "a", "--max-items", "3"],
        "--max-items only applies to 'news sources add' and 'news sources set'"
      ),
      (
        ["sources", "set", "a", "--tag", "x"],
        "--tag only applies to 'news sources'; did you mean '--tags'?"
      ),
      (["sources", "set", "a", "--name", "x"], "--name only applies to 'news sources add'"),
    ])
  func mistakes(arguments: [String], message: String) async throws {
    let result = await harness.run(arguments)
    #expect(result.code == .usage)
    #expect(result.err.contains(message), "\(result.err)")
    #expect(!FileManager.default.fileExists(atPath: configPath))
    #expect(harness.server.requests.isEmpty)
  }

  @Test("config.json: maxItems and enabled are checked, naming the field")
  func checked() async throws {
    try FileManager.default.createDirectory(
      atPath: harness.home.path("news"), withIntermediateDirectories: true)
    for (entry, field) in [
      (#"{"name": "a", "maxItems": 0}"#, "maxItems"),
      (#"{"name": "a", "enabled": "no"}"#, "enabled"),
    ] {
      try #"{"sources": [\#(entry)]}"#.write(toFile: configPath, atomically: true, encoding: .utf8)
      let result = await harness.run(["sources"])
      #expect(result.code == .configuration)
      #expect(result.err.contains(field), "\(result.err)")
    }
  }

  @Test("a provider is disabled and enabled like a source; sync then leaves it out and exits 0")
  func providerDisabled() async throws {
    for name in ["articles", "bbc", "a", "b", "c"] {
      let set = await harness.run(["sources", "set", name, "--disable"])
      #expect(set.code == .success, "\(set.err)")
    }
    let disabled = try config()
    #expect(disabled.contains(#"{"name":"bbc", "enabled": false}"#), "\(disabled)")
    let listed = try #require(
      try await harness.run(["sources", "--json"]).json()["sources"] as? [[String: Any]])
    let bbc = try #require(listed.first { $0["name"] as? String == "bbc" })
    #expect(bbc["format"] as? String == "provider" && bbc["enabled"] as? Bool == false)
    // Without a key newsapi is skipped; nothing else is asked: exit 0.
    let sync = await harness.run(["sync", "--json"], environment: ["NEWSAPI_KEY": nil])
    #expect(sync.code == .success, "\(sync.err)")
    let names = try #require(try sync.json()["sources"] as? [[String: Any]]).compactMap {
      $0["name"] as? String
    }
    #expect(names == ["newsapi"])
    #expect(harness.server.requests.isEmpty)
    // Only --enable and --disable apply to a provider.
    let ttl = await harness.run(["sources", "set", "bbc", "--ttl", "60"])
    #expect(ttl.code == .usage)
    #expect(ttl.err.contains("'bbc' is a provider: only --enable and --disable apply to it"))
    #expect(await harness.run(["sources", "set", "bbc", "--enable"]).code == .success)
    let enabled = try config()
    #expect(enabled.contains(#"{"name":"bbc"}"#), "\(enabled)")
    harness.server.route("/bbc.json", .fixture("headlines.json"))
    let again = await harness.run(["sync", "--json"], environment: ["NEWSAPI_KEY": nil])
    #expect(again.code == .success, "\(again.err)")
    #expect(harness.server.requests(to: "/bbc.json").count == 1)
  }
}
