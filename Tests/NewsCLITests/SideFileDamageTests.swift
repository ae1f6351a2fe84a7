import Foundation
import NewsCore
import TestSupport
import Testing

/// A damaged side file (#42.8) costs only what it holds: the command goes on with a warning
/// naming it, and repair removes it saying what that cost. Bookmarks are never repaired, but
/// never block reading either.
@Suite("Damaged side files cost only themselves")
struct SideFileDamageTests {
  let harness: Harness
  let episodes = Recorder<Int>()

  init() throws {
    harness = try Harness()
    episodes.record(1)
    try DownloadCommandTests.podcast(harness, episodes: episodes)
    harness.server.route(
      "/story.html",
      LoopbackServer.Response(
        headers: ["Content-Type": "text/html; charset=utf-8"],
        body: Fixtures.data("pages/news-story.html")))
  }

  /// A run without likes and comments (not what these tests are about).
  func run(_ arguments: [String]) async -> RunResult {
    await harness.run(arguments, environment: ["NEWS_COUNTS": "off"])
  }

  func succeed(_ arguments: [String]) async {
    await harness.succeed(arguments, environment: ["NEWS_COUNTS": "off"])
  }

  /// Damages every store file whose name starts with `prefix`; returns their names.
  @discardableResult
  func damage(_ prefix: String) throws -> [String] {
    let directory = harness.home.path("news")
    let names = try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".enc") }
    for name in names { try flipMiddleByte(of: URL(fileURLWithPath: directory + "/" + name)) }
    #expect(!names.isEmpty, "no \(prefix) file to damage")
    return names
  }

  /// Repair removes what was damaged, saying what it cost; doctor is then healthy.
  func repairs(_ names: [String], saying cost: String) async {
    let repaired = await run(["doctor", "--repair"])
    #expect(repaired.code == .success, "\(repaired.out)\(repaired.err)")
    for name in names { #expect(repaired.out.contains("removed"), "\(name): \(repaired.out)") }
    #expect(repaired.out.contains(cost), "\(repaired.out)")
    let doctor = await run(["doctor"])
    #expect(doctor.code == .success, "\(doctor.out)")
  }

  @Test("a damaged full-text file: search goes on without it, repair removes it")
  func fullText() async throws {
    await succeed(["feed"])
    await succeed(["show", harness.server.baseURL.absoluteString + "/story.html", "--full"])
    let names = try damage("fulltext-")
    let search = await run(["search", "Episode"])
    #expect(search.code == .success, "\(search.err)")
    #expect(search.err.contains("fulltext-"), "\(search.err)")
    #expect(search.err.contains("full texts kept in it are left out"), "\(search.err)")
    #expect(search.out.contains("Episode 1"))
    await repairs(names, saying: "full texts kept in it could not be read")
  }

  @Test("a damaged record of downloads: download goes on, repair removes it")
  func downloads() async throws {
    await succeed(["feed"])
    await succeed(["download", "1"])
    let names = try damage("downloads")
    let again = await run(["download", "1"])
    #expect(again.code == .success, "\(again.err)")
    #expect(again.err.contains("downloads.enc does not open"), "\(again.err)")
    await repairs(names, saying: "record of downloads could not be read")
  }

  @Test("damaged enclosures and first-seen files: lists go on, repair removes them")
  func enclosuresAndArrivals() async throws {
    await succeed(["feed"])
    let names = try damage("enclosures-") + damage("arrivals-")
    let feed = await run(["feed", "--offline"])
    #expect(feed.code == .success, "\(feed.err)")
    #expect(feed.out.contains("Episode 1"))
    await repairs(names, saying: "could not be read")
  }

  @Test("damaged bookmarks never block show, search or accounts, and repair leaves them")
  func bookmarks() async throws {
    await succeed(["feed"])
    await succeed(["bookmark", "1"])
    try damage("bookmarks")
    for arguments in [["show", "1"], ["accounts"], ["feed", "--offline"]] {
      let result = await run(arguments)
      #expect(result.code == .success, "\(arguments): \(result.err)")
    }
    for arguments in [["search", "Episode"], ["bookmarks"]] {
      let result = await run(arguments)
      #expect(result.code == .success, "\(arguments): \(result.err)")
      #expect(result.err.contains("bookmarks are left out"), "\(arguments): \(result.err)")
    }
    // Never replaced: bookmarking again fails, naming the file.
    await succeed(["feed", "--offline"])
    let bookmark = await run(["bookmark", "1"])
    #expect(bookmark.code == .ioError)
    let repaired = await run(["doctor", "--repair"])
    #expect(!repaired.out.contains("removed \(harness.home.path("news/bookmarks.enc"))"))
    #expect(FileManager.default.fileExists(atPath: harness.home.path("news/bookmarks.enc")))
  }
}
