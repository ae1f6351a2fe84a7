import FeedParsing
import Foundation
import NewsCore
import TestSupport
import Testing

@Suite("Store safety: the key is checked before any write, a damaged file is never replaced")
struct StoreSafetyTests {
  let harness: Harness
  let first = Data(repeating: 1, count: 32).base64EncodedString()
  let second = Data(repeating: 2, count: 32).base64EncodedString()

  init() throws {
    harness = try Harness()
    harness.routeDemoSources()
  }

  var store: URL { URL(fileURLWithPath: harness.home.path("news")) }

  /// Every file of the store with its bytes.
  func snapshot() throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: store.path) {
      files[name] = FileManager.default.contents(atPath: store.appendingPathComponent(name).path)
    }
    return files
  }

  func damage(_ name: String) throws {
    let url = store.appendingPathComponent(name)
    var bytes = try Data(contentsOf: url)
    bytes[bytes.count - 1] ^= 0xFF
    try bytes.write(to: url)
  }

  @Test(
    "a wrong NEWS_STORE_KEY is exit 74 before anything is written",
    arguments: [
      ["bookmarks"], ["sync"], ["headlines"], ["feed"], ["search", "olympics"], ["show", "1"],
      ["read", "1"], ["read", "--all"], ["unread", "1"], ["bookmark", "1"], ["unbookmark", "1"],
      ["open", "1"], ["doctor"], ["doctor", "--repair"], ["sources"], ["headlines", "--offline"],
    ])
  func wrongKey(arguments: [String]) async throws {
    #expect(await harness.run(["sync"], environment: ["NEWS_STORE_KEY": first]).code == .success)
    let before = try snapshot()
    let requests = harness.server.requests.count
    let result = await harness.run(arguments, environment: ["NEWS_STORE_KEY": second])
    #expect(result.code == .ioError)
    if arguments == ["doctor"] {
      // The diagnosis itself: one line says the key opens no file (not one block a file).
      #expect(result.out.contains("FAILED the store key does not open"), "\(result.out)")
      #expect(result.out.components(separatedBy: "FAILED").count == 2)
      #expect(result.out.contains("keycheck.enc"))
      #expect(!result.out.contains("(see 'news doctor')"), "doctor points at itself")
      #expect(!result.out.contains("--repair"), "a wrong key is nothing to repair")
    } else {
      #expect(result.err.contains("the store key does not open"))
      #expect(result.err.contains("nothing was written"))
    }
    #expect(try snapshot() == before)
    // Known before any request was made.
    #expect(harness.server.requests.count == requests)
  }

  /// `config.json` with the feed `blog` served, a urls file to import, and `arguments` with
  /// `URL` and `FILE` made the server's address and that file.
  func blog(_ arguments: [String]) throws -> (config: String, arguments: [String]) {
    let base = harness.server.baseURL.absoluteString
    let config = try harness.home.write(
      "config.json", #"{"sources": [{"name": "blog", "url": "\#(base)/blog.xml"}]}"#)
    let file = try harness.home.write("urls", "\(base)/imported.xml\n")
    harness.server.route("/blog.xml", .fixture("feeds/rss20_1.xml"))
    return (
      config,
      arguments.map {
        $0.replacingOccurrences(of: "URL", with: base).replacingOccurrences(of: "FILE", with: file)
      }
    )
  }

  @Test(
    "a wrong key stops sources add, remove, import and export before anything is fetched or written",
    arguments: [
      ["sources", "add", "URL/new.xml"], ["sources", "remove", "blog"],
      ["sources", "import", "FILE"], ["sources", "export"],
    ])
  func wrongKeySources(arguments: [String]) async throws {
    let (config, arguments) = try blog(arguments)
    let keys = [first, second].map { ["NEWS_STORE_KEY": $0, "NEWS_CONFIG": config] }
    #expect(await harness.run(["sync"], environment: keys[0]).code == .success)
    let before = try snapshot()
    let configBefore = try Data(contentsOf: URL(fileURLWithPath: config))
    let requests = harness.server.requests.count
    let result = await harness.run(arguments, environment: keys[1])
    #expect(result.code == .ioError)
    #expect(result.err.contains("the store key does not open"))
    #expect(result.out.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: harness.home.path(".config.json.lock")))
    #expect(try snapshot() == before)
    #expect(try Data(contentsOf: URL(fileURLWithPath: config)) == configBefore)
    #expect(harness.server.requests.count == requests)
  }

  @Test(
    "a store whose key is gone is given no new one: every command that writes is exit 74 first",
    arguments: [
      ["sources", "add", "URL/new.xml"], ["sources", "remove", "blog"],
      ["sources", "set", "blog", "--disable"], ["sources", "import", "FILE"],
      ["ignore", "add", "sponsored"], ["headlines"], ["feed"], ["bookmarks"], ["sync"],
    ])
  func missingKey(arguments: [String]) async throws {
    let (config, arguments) = try blog(arguments)
    let environment: [String: String?] = ["NEWS_STORE_KEY": nil, "NEWS_CONFIG": config]
    #expect(await harness.run(["sync"], environment: environment).code == .success)
    let key = store.appendingPathComponent("key")
    try FileManager.default.removeItem(at: key)
    let before = try snapshot()
    let configBefore = try Data(contentsOf: URL(fileURLWithPath: config))
    let requests = harness.server.requests.count
    let result = await harness.run(arguments, environment: environment)
    #expect(result.code == .ioError, "\(result.err)")
    #expect(result.err.contains("no store key"), "\(result.err)")
    #expect(result.err.contains("nothing was written"))
    #expect(!FileManager.default.fileExists(atPath: key.path))
    #expect(try snapshot() == before)
    #expect(try Data(contentsOf: URL(fileURLWithPath: config)) == configBefore)
    #expect(harness.server.requests.count == requests)
  }

  @Test("a store written before the key check is checked by opening its files")
  func wrongKeyOldStore() async throws {
    await harness.succeed(["headlines"], environment: ["NEWS_STORE_KEY": first])
    try FileManager.default.removeItem(at: store.appendingPathComponent("keycheck.enc"))
    let before = try snapshot()
    let result = await harness.run(["bookmarks"], environment: ["NEWS_STORE_KEY": second])
    #expect(result.code == .ioError)
    #expect(try snapshot() == before)
    // With the right key, the next write adds the key check.
    #expect(
      await harness.run(["bookmarks"], environment: ["NEWS_STORE_KEY": first]).code == .success)
    #expect(try snapshot()["keycheck.enc"] != nil)
  }

  @Test(
    "a damaged last listing (only what the last list showed) is replaced by the next list",
    arguments: [["headlines"], ["search", "olympics"], ["bookmarks"]])
  func damagedLastListing(arguments: [String]) async throws {
    await harness.succeed(["headlines"])
    #expect(await harness.run(["bookmark", "1"]).code == .success)
    try damage("last-listing.enc")
    let damaged = try snapshot()["last-listing.enc"]
    #expect(await harness.run(["show", "1", "--offline"]).code == .ioError)
    let result = await harness.run(arguments)
    #expect(result.code == .success, "\(result.err)")
    // Replaced, and said: one warning naming it.
    #expect(result.err.hasPrefix("news: warning: ") && result.err.split(separator: "\n").count == 1)
    #expect(result.err.contains("last-listing.enc was damaged and is replaced"), "\(result.err)")
    #expect(try snapshot()["last-listing.enc"] != damaged)
    #expect(await harness.run(["show", "1", "--offline"]).code == .success)
    #expect(await harness.run(["doctor"]).code == .success)
  }

  @Test("a damaged entry of the feed cache fails its source, named, online too; the rest reads")
  func damagedFeedCache() async throws {
    await harness.succeed(["feed"])
    // One record of the bundle damaged: one source's entry.
    let bundles = try damageFeedCacheBundles(in: store) { $0 == 0 }
    #expect(bundles.count == 1)
    let damaged = try snapshot()[bundles[0]]
    let feed = await harness.run(["feed", "--refresh", "--json"])
    #expect(feed.code == .success)
    let sources = try #require(try feed.json()["sources"] as? [[String: Any]])
    let failed = sources.filter { $0["status"] as? String == "failed" }
    #expect(failed.count == 1 && sources.count > 1)
    let name = try #require(failed.first?["name"] as? String)
    #expect(feed.err.hasPrefix("news: warning: source \(name): cannot decrypt "))
    #expect(feed.err.contains(bundles[0]))
    // A sync asking every source, answered with documents, reads each entry to tell the new
    // items: the damaged one fails its source.
    let sync = await harness.run(["sync", "--refresh", "--json"])
    #expect(sync.code == .temporaryFailure)
    let synced = try #require(try sync.json()["sources"] as? [[String: Any]])
    #expect(synced.first { $0["name"] as? String == name }?["status"] as? String == "failed")
    // A sync with the source not due answers from the cache's directory (its summary and its
    // count) without opening the entry: its items are in the store, and the damage waits for
    // the next fetch or list, or doctor.
    let notDue = await harness.run(["sync", "--json"])
    let listed = try #require(try notDue.json()["sources"] as? [[String: Any]])
    let row = try #require(listed.first { $0["name"] as? String == name })
    #expect(row["status"] as? String == "ok" && row["asked"] as? Bool == false)
    #expect((row["total"] as? Int ?? 0) > 0, "\(row)")
    #expect(try snapshot()[bundles[0]] == damaged)
    // Repair removes the bundle (the cache is made again): the source is fetched again.
    #expect(await harness.run(["doctor", "--repair"]).code == .success)
    #expect(try snapshot()[bundles[0]] == nil)
    #expect(await harness.run(["feed", "--refresh"]).code == .success)
  }

  @Test("doctor on a new machine says there is no key yet, and creates nothing")
  func doctorWithoutKey() async throws {
    let result = await harness.run(["doctor", "--json"], environment: ["NEWS_STORE_KEY": nil])
    #expect(result.code == .success)
    #expect(try result.json()["key"] is NSNull)
    #expect(!FileManager.default.fileExists(atPath: store.path))
    let text = await harness.run(["doctor"])
    #expect(text.out.contains("key:    no key yet"))
  }

  @Test("what a killed write left is listed by doctor, then removed by the next write")
  func leftovers() async throws {
    await harness.succeed(["headlines"])
    let leftover = store.appendingPathComponent(".listings.enc.tmp-4242-beef")
    try Data("half".utf8).write(to: leftover)
    let doctor = await harness.run(["doctor", "--json"])
    #expect(try doctor.json()["leftovers"] as? [String] == [leftover.path])
    await harness.succeed(["headlines"])
    #expect(!FileManager.default.fileExists(atPath: leftover.path))
  }
}

@Suite("Persistent query defaults: NEWS_COUNTRY, NEWS_CATEGORY, NEWS_LANGUAGE")
struct QueryDefaultsTests {
  let harness: Harness

  init() throws {
    harness = try Harness()
    harness.server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    harness.server.route("/v2/everything", .fixture("top-headlines-us-2022-02-17.json"))
  }

  @Test("the defaults shape the query; options and --sources win")
  func defaults() async throws {
    let environment = ["NEWS_COUNTRY": "fr", "NEWS_CATEGORY": "sports", "NEWS_LANGUAGE": "fr"]
    await harness.succeed(["headlines"], environment: environment)
    await harness.succeed(["headlines", "--country", "de"], environment: environment)
    await harness.succeed(["headlines", "--sources", "bbc-news"], environment: environment)
    let queries = harness.server.requests(to: "/v2/top-headlines").map(\.query)
    #expect(queries[0]["country"] == "fr" && queries[0]["category"] == "sports")
    #expect(queries[1]["country"] == "de" && queries[1]["category"] == "sports")
    #expect(queries[2]["country"] == nil && queries[2]["category"] == nil)
    await harness.succeed(["search", "x", "--online"], environment: environment)
    #expect(harness.server.requests(to: "/v2/everything").first?.query["language"] == "fr")
  }

  @Test(
    "a bad default is exit 78 naming it",
    arguments: [("NEWS_COUNTRY", "france"), ("NEWS_CATEGORY", "weather"), ("NEWS_LANGUAGE", "1")])
  func badDefault(variable: String, value: String) async {
    let result = await harness.run(["bookmarks"], environment: [variable: value])
    #expect(result.code == .configuration)
    #expect(result.err.hasPrefix("news: \(variable)='\(value)' is not valid"))
  }
}
