import FeedParsing
import Foundation
import NewsCore
import TestSupport
import Testing

@Suite("Offline reading, show, bookmarks, search, doctor")
struct StoreCommandsTests {
  let harness: Harness

  init() throws {
    harness = try Harness()
    harness.server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    harness.server.route(prefix: "/info/likes/") { _ in .json(#"{"likes": 14}"#) }
    harness.server.route(prefix: "/info/comments/") { _ in .json(#"{"comments": 5}"#) }
  }

  func fetch() async throws -> [[String: Any]] {
    let result = await harness.run(["headlines", "--json"])
    #expect(result.code == .success)
    return try #require(try result.json()["articles"] as? [[String: Any]])
  }

  @Test("after a failure the stored list for the same query is shown, stale, exit 0")
  func staleFallback() async throws {
    let fresh = try await fetch()
    harness.server.route("/v2/top-headlines", .json("oops", status: 500))
    let result = await harness.run(["headlines", "--json"])
    #expect(result.code == .success)
    let document = try result.json()
    #expect(document["stale"] as? Bool == true)
    #expect((document["error"] as? String)?.contains("HTTP 500") == true)
    #expect((document["articles"] as? [Any])?.count == fresh.count)
    #expect(result.err.hasPrefix("news: warning: newsapi.org answered HTTP 500"))
    #expect(result.err.contains("showing the articles stored"))
    #expect(result.err.filter { $0 == "\n" }.count == 1)
  }

  @Test("a different query does not get another query's stored list")
  func staleOnlyForSameQuery() async throws {
    _ = try await fetch()
    harness.server.route("/v2/top-headlines", .dropped)
    let result = await harness.run(["headlines", "--category", "sports"])
    #expect(result.code == .unavailable)
  }

  @Test("--offline reads the store and never the network")
  func offline() async throws {
    _ = try await fetch()
    let before = harness.server.requests.count
    let result = await harness.run(
      ["headlines", "--offline", "--json"], environment: ["NEWSAPI_KEY": nil])
    #expect(result.code == .success)
    #expect(harness.server.requests.count == before)
    #expect((try result.json()["articles"] as? [Any])?.count == 20)
  }

  @Test("--offline with nothing stored is exit 69 with a hint")
  func offlineEmpty() async {
    let result = await harness.run(["headlines", "--offline"])
    #expect(result.code == .unavailable)
    #expect(result.err.contains("news sync"))
  }

  @Test("show by index, id, prefix and URL finds the same article")
  func showReferences() async throws {
    let articles = try await fetch()
    let id = try #require(articles[2]["id"] as? String)
    let url = try #require(articles[2]["url"] as? String)
    for reference in ["3", id, String(id.prefix(id.count - 3)), url] {
      let result = await harness.run(["show", reference, "--json"])
      #expect(result.code == .success, "\(reference): \(result.err)")
      #expect(try result.json()["id"] as? String == id)
    }
  }

  @Test("show: likes and comments asked for concurrently, as one path segment")
  func counts() async throws {
    let articles = try await fetch()
    let id = try #require(articles[0]["id"] as? String)
    let barrier = ArrivalBarrier(count: 2)
    harness.server.route("/info/likes/" + ArticleID.pathSegment(id)) { _ in
      barrier.arrive()
      return .json(#"{"likes": 14}"#)
    }
    harness.server.route("/info/comments/" + ArticleID.pathSegment(id)) { _ in
      barrier.arrive()
      return .json("56")
    }
    let result = await harness.run(["show", "1", "--json"])
    let document = try result.json()
    #expect(document["likes"] as? Int == 14)
    #expect(document["comments"] as? Int == 56)
    // Both requests were in flight together: one after the other, they could not meet.
    #expect(barrier.metTogether)
    #expect(result.err.isEmpty)
  }

  @Test("show: a failed count reads unavailable, with a warning; the article is still shown")
  func countFailure() async throws {
    _ = try await fetch()
    // The likes fail for real (HTTP 500 after the retries); the comments answer.
    harness.server.route(prefix: "/info/likes/") { _ in .json("oops", status: 500) }
    let result = await harness.run(["show", "1"])
    #expect(result.code == .success)
    #expect(result.out.contains("unavailable"))
    #expect(result.err.contains("warning: likes unavailable: the info API answered HTTP 500"))
    #expect(result.out.contains("♥ unavailable · 💬 5"))
    let json = await harness.run(["show", "1", "--json"])
    let document = try json.json()
    #expect(document["likes"] is NSNull)
    #expect(document["comments"] as? Int == 5)
  }

  @Test("show text: title, source, local time, counts in words off a UTF-8 terminal")
  func showText() async throws {
    let articles = try await fetch()
    let id = try #require(articles[0]["id"] as? String)
    harness.server.route("/info/likes/" + ArticleID.pathSegment(id), .json(#"{"likes": 3}"#))
    harness.server.route("/info/comments/" + ArticleID.pathSegment(id), .json(#"{"comments": 4}"#))
    let result = await harness.run(["show", "1"])
    #expect(result.out.contains("Read:  https://"))
    #expect(result.out.contains("Published "))
    #expect(result.out.contains("♥ 3 · 💬 4"))
  }

  @Test("show of an unknown id: exit 64 with the documented message")
  func showUnknown() async {
    let result = await harness.run(["show", "xyz"])
    #expect(result.code == .usage)
    #expect(
      result.err
        == "news: no article 'xyz' (list some first: news feed, news search, news bookmarks; or "
        + "pass an id or URL; see 'news show --help')\n"
    )
  }

  @Test("an ambiguous prefix lists the candidates, exit 64")
  func ambiguous() async throws {
    _ = try await fetch()
    let result = await harness.run(["show", "www."])
    #expect(result.code == .usage)
    #expect(result.err.contains("matches"))
  }

  @Test("an index past the end of the last list is exit 64")
  func badIndex() async throws {
    _ = try await fetch()
    let result = await harness.run(["show", "99"])
    #expect(result.code == .usage)
    #expect(result.err.contains("has 20 articles"))
  }

  @Test("show of an unstored URL derives its id and still asks for counts")
  func showURL() async throws {
    let url = "https://example.com/a/b?x=1"
    harness.server.route("/info/likes/example.com-a-b%3Fx%3D1", .json("7"))
    harness.server.route("/info/comments/example.com-a-b%3Fx%3D1", .json("2"))
    let result = await harness.run(["show", url, "--json"])
    #expect(result.code == .success)
    #expect(try result.json()["id"] as? String == "example.com-a-b?x=1")
    #expect(try result.json()["likes"] as? Int == 7)
  }

  @Test("bookmarks survive retention and read offline")
  func bookmarks() async throws {
    _ = try await fetch()
    let added = await harness.run(["bookmark", "1", "2"])
    #expect(added.code == .success)
    #expect(added.out.components(separatedBy: "bookmarked:").count == 3)
    // Retention of one article drops the rest of the headlines, not the bookmarks.
    harness.server.route(
      "/v2/top-headlines", .fixture("top-headlines-2019-03-27-trimmed-nulls.json"))
    await harness.succeed(["headlines"], environment: ["NEWS_RETENTION_MAX": "1"])
    let list = await harness.run(["bookmarks", "--json"])
    #expect((try list.json()["articles"] as? [Any])?.count == 2)
    let removed = await harness.run(["unbookmark", "1"])
    #expect(removed.code == .success)
    let after = await harness.run(["bookmarks", "--json"])
    #expect((try after.json()["articles"] as? [Any])?.count == 1)
    let again = await harness.run(["unbookmark", "xyz"])
    #expect(again.code == .usage)
  }

  @Test("search finds stored articles offline, and its results become the last list")
  func search() async throws {
    _ = try await fetch()
    let result = await harness.run(
      ["search", "Olympics", "--json"], environment: ["NEWSAPI_KEY": nil])
    #expect(result.code == .success)
    let articles = try #require(try result.json()["articles"] as? [[String: Any]])
    #expect(!articles.isEmpty)
    let shown = await harness.run(["show", "1", "--json", "--offline"])
    #expect(try shown.json()["id"] as? String == articles[0]["id"] as? String)
  }

  @Test("no plaintext of any article anywhere under NEWS_HOME")
  func noPlaintext() async throws {
    let articles = try await fetch()
    await harness.succeed(["bookmark", "1"])
    await harness.succeed(["search", "the"])
    let home = harness.home.url.appendingPathComponent("news")
    let files = try #require(
      FileManager.default.enumerator(atPath: home.path)?.allObjects as? [String])
    #expect(files.count >= 4)
    let needles =
      articles.compactMap { $0["title"] as? String }.map { Data($0.prefix(24).utf8) }
      + [Data("Olympics".utf8), Data("http".utf8)]
    for file in files {
      let data = try Data(contentsOf: home.appendingPathComponent(file))
      for needle in needles { #expect(data.range(of: needle) == nil, "\(file)") }
    }
  }

  @Test("doctor: healthy store exits 0; a tampered file is named, exit 74, and kept")
  func doctor() async throws {
    _ = try await fetch()
    let healthy = await harness.run(["doctor", "--json"])
    #expect(healthy.code == .success)
    #expect(try healthy.json()["ok"] as? Bool == true)
    let file = harness.home.url.appendingPathComponent("news/listings.enc")
    var bytes = try Data(contentsOf: file)
    bytes[bytes.count - 1] ^= 1
    try bytes.write(to: file)
    let broken = await harness.run(["doctor"])
    #expect(broken.code == .ioError)
    #expect(broken.out.contains("FAILED listings"))
    #expect(
      broken.out.hasSuffix(
        "'news doctor --repair' makes the store usable again, losing only what cannot be read.\n"))
    let headlines = await harness.run(["headlines"])
    #expect(headlines.code == .ioError)
    #expect(headlines.err.contains("listings.enc"))
    #expect(try Data(contentsOf: file) == bytes)
  }

  @Test("doctor: a segment file the manifest lists but that is gone is named; leftovers listed")
  func doctorSegments() async throws {
    _ = try await fetch()
    let directory = harness.home.url.appendingPathComponent("news")
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    // The headlines' segment: small, in a pack.
    let segment = try #require(names.first { $0.hasPrefix("segs-") })
    // A pack no manifest lists: what a save killed before its commit leaves.
    try FileManager.default.copyItem(
      at: directory.appendingPathComponent(segment),
      to: directory.appendingPathComponent("segs-999.enc"))
    let leftover = await harness.run(["doctor", "--json"])
    #expect(leftover.code == .success)
    let leftovers = try #require(try leftover.json()["leftovers"] as? [String])
    #expect(leftovers.contains { $0.hasSuffix("segs-999.enc") })
    try FileManager.default.removeItem(at: directory.appendingPathComponent(segment))
    let missing = await harness.run(["doctor"])
    #expect(missing.code == .ioError)
    #expect(missing.out.contains("missing: the store's segment manifest lists it"))
    // Missing is a kind of damaged: a search reads around it, said once.
    let search = await harness.run(["search", "the"])
    #expect(search.code == .success)
    #expect(search.err.contains("\(segment) does not open"), "\(search.err)")
    #expect(search.err.contains("(the file is missing)"))
  }

  @Test(
    "a deleted segment manifest loses nothing: lists still read, doctor names it, the next save or --repair writes it again"
  )
  func deletedManifest() async throws {
    _ = try await fetch()
    let directory = harness.home.url.appendingPathComponent("news")
    let before = try #require(
      try await harness.run(["search", "the", "--json"]).json()["articles"] as? [Any]
    ).count
    #expect(before > 0)
    try FileManager.default.removeItem(at: directory.appendingPathComponent("segments.enc"))
    let doctor = await harness.run(["doctor"])
    #expect(doctor.code == .ioError)
    #expect(doctor.out.contains("the segments are read through a manifest rebuilt from them"))
    let search = await harness.run(["search", "the", "--json"])
    #expect((try search.json()["articles"] as? [Any])?.count == before)
    let repaired = await harness.run(["doctor", "--repair", "--json"])
    #expect(repaired.code == .success, "\(repaired.out)")
    let repairs = try #require(try repaired.json()["repairs"] as? [String])
    #expect(repairs.contains { $0.hasPrefix("rebuilt the segment manifest") })
    #expect(await harness.run(["doctor"]).code == .success)
    #expect(
      (try await harness.run(["search", "the", "--json"]).json()["articles"] as? [Any])?.count
        == before)
  }

  @Test("doctor --repair: damaged segments dropped, damaged listings removed, bookmarks untouched")
  func doctorRepair() async throws {
    _ = try await fetch()
    #expect(await harness.run(["bookmark", "1"]).code == .success)
    let directory = harness.home.url.appendingPathComponent("news")
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    let segment = try #require(names.first { $0.hasPrefix("segs-") })
    for name in [segment, "listings.enc", "bookmarks.enc"] {
      let file = directory.appendingPathComponent(name)
      var bytes = try Data(contentsOf: file)
      // The pack's second record: its first segment, after the filters (a 9-byte header, then
      // each record's length in 4 bytes before it), not the pack's directory at its end.
      let filters = bytes[9..<13].reversed().reduce(0) { $0 << 8 | Int($1) }
      bytes[name == segment ? 13 + filters + 4 + 20 : bytes.count - 1] ^= 1
      try bytes.write(to: file)
    }
    let bookmarks = try Data(contentsOf: directory.appendingPathComponent("bookmarks.enc"))
    // A wrong key repairs nothing.
    let wrongKey = await harness.run(
      ["doctor", "--repair"],
      environment: ["NEWS_STORE_KEY": String(repeating: "A", count: 43) + "="])
    #expect(wrongKey.code == .ioError)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).contains(segment))

    let repaired = await harness.run(["doctor", "--repair", "--json"])
    let document = try repaired.json()
    let repairs = try #require(document["repairs"] as? [String])
    #expect(repairs.contains { $0.hasPrefix("dropped segment") })
    #expect(repairs.contains { $0.contains("removed") && $0.contains("listings.enc") })
    // The index is made again from the listing files: the query reads offline, none orphaned.
    #expect(repairs.contains { $0.hasPrefix("rebuilt") && $0.contains("from 1 listing file") })
    #expect(await harness.run(["headlines", "--offline"]).code == .success)
    // Only the bookmarks are left damaged, as they were.
    #expect(repaired.code == .ioError)
    let failed = (document["files"] as? [[String: Any]] ?? []).filter {
      $0["status"] as? String == "error"
    }
    #expect(failed.compactMap { $0["name"] as? String } == ["bookmarks"])
    #expect(try Data(contentsOf: directory.appendingPathComponent("bookmarks.enc")) == bookmarks)
    // Fetching works again.
    #expect(await harness.run(["headlines"]).code == .success)
  }
}
