import Foundation
import NewsCore
import TestSupport
import Testing

@testable import NewsCLI

/// `news download`, end to end on loopback: files, the lines a pipe gets, JSON, `--new` across
/// runs, `news play` finding the file, and what is refused.
@Suite("news download")
struct DownloadCommandTests {
  let harness: Harness
  /// The podcast's episodes, by number (1 to start with).
  let episodes = Recorder<Int>()

  init() throws {
    harness = try Harness()
    episodes.record(1)
    try Self.podcast(harness, episodes: episodes)
  }

  static func episode(_ number: Int) -> Data {
    Data((0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* number &+ number) })
  }

  /// A podcast of `episodes` on the harness's server, subscribed as `cast`.
  static func podcast(_ harness: Harness, episodes: Recorder<Int>) throws {
    let base = harness.server.baseURL.absoluteString
    harness.server.route("/cast.xml") { _ in
      let items = episodes.all.reversed().map { number in
        """
        <item><title>Episode \(number)</title><link>\(base)/ep\(number)</link>
        <pubDate>Tue, 2\(number) Nov 2026 10:00:00 GMT</pubDate>
        <enclosure url="\(base)/ep\(number).mp3" type="audio/mpeg" length="40000"/></item>
        """
      }.joined()
      return LoopbackServer.Response(
        headers: ["Content-Type": "application/rss+xml"],
        body: Data("<rss version=\"2.0\"><channel><title>Cast</title>\(items)</channel></rss>".utf8)
      )
    }
    harness.server.route(prefix: "/ep") { request in
      let number = Int(request.path.dropFirst(3).prefix { $0.isNumber }) ?? 0
      return .file(episode(number), for: request, etag: "\"e\(number)\"")
    }
    try harness.writeConfig(sources: #"{"name": "cast", "url": "\#(base)/cast.xml"}"#)
  }

  @Test("an episode downloads to Downloads/<source>/<date> <title>.<ext>; play then plays the file")
  func download() async throws {
    await harness.succeed(["feed"])
    let result = await harness.run(["download", "1"])
    #expect(result.code == .success, "\(result.err)")
    let path = harness.home.path("Downloads/cast/2026-11-21 Episode 1.mp3")
    #expect(result.out == "downloaded  40 KB     \(path)\n")
    #expect(FileManager.default.contents(atPath: path) == Self.episode(1))
    // Again: already there, nothing asked.
    let again = try await harness.run(["download", "1", "--json"]).json()
    let entry = try #require((again["downloads"] as? [[String: Any]])?.first)
    #expect(entry["status"] as? String == "already")
    #expect(entry["path"] as? String == path)
    #expect(entry["bytes"] as? Int == 40_000)
    #expect(harness.server.requests(to: "/ep1.mp3").count == 1)
    let log = harness.home.path("played.txt")
    let script = try harness.home.writeExecutable(
      "player.sh", "#!/bin/sh\nprintf '%s\\n' \"$@\" > \(log)\n")
    await harness.succeed(["play", "1"], environment: ["NEWS_PLAYER": script])
    #expect(try String(contentsOfFile: log, encoding: .utf8) == path + "\n")
    // A player that is not there is said, not passed over without a word.
    let missing = await harness.run(
      ["play", "1"], environment: ["NEWS_PLAYER": "no-such-player --fs", "PATH": "/nonexistent"])
    #expect(missing.code == .success)
    #expect(
      missing.err.contains("NEWS_PLAYER names 'no-such-player', which cannot be found"),
      "\(missing.err)")
    #expect(missing.out == path + "\n", "the file printed instead")
  }

  @Test("--new takes only what was never downloaded, across runs, even after a file is deleted")
  func new() async throws {
    episodes.record(2)
    let directory = harness.home.path("pods")
    await harness.succeed(["feed"])
    let first = await harness.run(["download", "--new", "--source", "cast", "--dir", directory])
    #expect(first.code == .success, "\(first.err)")
    #expect(first.out.split(separator: "\n").count == 2)
    episodes.record(3)
    await harness.succeed(["feed", "--refresh"])
    try FileManager.default.removeItem(atPath: directory + "/cast/2026-11-21 Episode 1.mp3")
    let second = try await harness.run(["download", "--new", "--dir", directory, "--json"]).json()
    let downloads = try #require(second["downloads"] as? [[String: Any]])
    #expect(downloads.map { $0["title"] as? String } == ["Episode 3"])
    #expect(harness.server.requests(to: "/ep1.mp3").count == 1)
    let third = await harness.run(["download", "--new", "--dir", directory])
    #expect(third.code == .success)
    #expect(third.out == "Nothing new to download.\n")
    // Without --new a deleted file comes again.
    let again = await harness.run([
      "download", "--source", "cast", "--limit", "3", "--dir", directory,
    ])
    #expect(again.out.contains("downloaded"))
    #expect(again.out.contains("already"))
    #expect(harness.server.requests(to: "/ep1.mp3").count == 2)
  }

  @Test("a transfer cut off is exit 75 with the part kept; the next run resumes it")
  func interrupted() async throws {
    await harness.succeed(["feed"])
    // Cut off half way, then nothing more: the retries end with what came kept.
    harness.server.route("/ep1.mp3") { request in
      guard request.headers["range"] == nil else { return .dropped }
      var response = LoopbackServer.Response.file(Self.episode(1), for: request, etag: "\"e1\"")
      response.truncatedAfter = 15_000
      return response
    }
    let cut = await harness.run(["download", "1"])
    #expect(cut.code == .temporaryFailure)
    #expect(cut.err.contains("run the command again to resume"))
    let path = harness.home.path("Downloads/cast/2026-11-21 Episode 1.mp3")
    #expect(FileManager.default.contents(atPath: path + ".part") == Self.episode(1).prefix(15_000))
    harness.server.route("/ep1.mp3") { .file(Self.episode(1), for: $0, etag: "\"e1\"") }
    let resumed = await harness.run(["download", "1"])
    #expect(resumed.code == .success, "\(resumed.err)")
    #expect(resumed.out.hasPrefix("resumed "))
    #expect(harness.server.requests(to: "/ep1.mp3").last?.headers["range"] == "bytes=15000-")
    #expect(FileManager.default.contents(atPath: path) == Self.episode(1))
  }

  @Test(
    "refused: nothing named, --limit with ids, an item without audio, an unknown source",
    arguments: [
      (["download"], ExitCode.usage, "missing <id>"),
      (["download", "1", "--limit", "2"], .usage, "--limit only applies without ids"),
      (["download", "2"], .dataError, "carries no audio or video"),
      (["download", "--source", "nope"], .usage, "nope"),
    ])
  func refused(arguments: [String], code: ExitCode, words: String) async throws {
    let base = harness.server.baseURL.absoluteString
    harness.server.route(
      "/notes.xml",
      .json(
        "<rss version=\"2.0\"><channel><title>N</title><item><title>Text only</title><link>\(base)/n</link><pubDate>Mon, 01 Jun 2020 10:00:00 GMT</pubDate></item></channel></rss>"
      ))
    try harness.writeConfig(
      sources:
        #"{"name": "cast", "url": "\#(base)/cast.xml"}, {"name": "notes", "url": "\#(base)/notes.xml"}"#
    )
    await harness.succeed(["feed"])
    let result = await harness.run(arguments)
    #expect(result.code == code)
    #expect(result.err.contains(words), "\(result.err)")
  }
}

/// The progress bars `news download` draws on a terminal.
@Suite("Download progress bars")
struct DownloadBarTests {
  static let start = Date(timeIntervalSince1970: 1_000)

  @Test("a bar with percent, sizes, rate and time left, within the width")
  func bar() {
    let entry = DownloadProgress.Entry(
      name: "2026-11-25 Episode 12.mp3", bytes: 20_000_000, total: 48_000_000,
      resumedFrom: 0, startedAt: Self.start)
    let line = DownloadBar.line(entry, now: Self.start + 10, width: 100, unicode: true)
    #expect(line.count <= 100)
    #expect(line.hasPrefix("2026-11-25 Episode 12.mp3"))
    #expect(line.contains("█"))
    #expect(line.hasSuffix(" 41%  20 MB / 48 MB  2.0 MB/s  0:14"))
    let ascii = DownloadBar.line(entry, now: Self.start + 10, width: 60, unicode: false)
    #expect(ascii.contains("#") && !ascii.contains("█") && ascii.count <= 60)
  }

  @Test("a resumed file's rate counts only this run's bytes; no size known, no bar")
  func resumedAndUnknown() {
    let resumed = DownloadProgress.Entry(
      name: "a.mp3", bytes: 30_000_000, total: nil, resumedFrom: 10_000_000,
      startedAt: Self.start)
    #expect(DownloadBar.rate(resumed, now: Self.start + 4) == 5_000_000)
    let line = DownloadBar.line(resumed, now: Self.start + 4, width: 80, unicode: true)
    #expect(!line.contains("█") && !line.contains("░"))
    #expect(line.hasSuffix("30 MB  5.0 MB/s"))
    #expect(DownloadBar.rate(resumed, now: Self.start + 0.2) == nil)
  }

  @Test("bars are redrawn in place and finished lines printed above them")
  func redraw() {
    let out = Recorder<String>()
    let err = Recorder<String>()
    let bars = ProgressBars(
      console: Console(out: { out.record($0) }, err: { err.record($0) }, stderrIsTerminal: true))
    bars.draw(["one", "two"])
    bars.draw(["one"])
    bars.print("done\n")
    bars.clear()
    #expect(
      err.all == [
        "\u{1B}[2Kone\n\u{1B}[2Ktwo\n", "\r\u{1B}[2A\u{1B}[J\u{1B}[2Kone\n", "\r\u{1B}[1A\u{1B}[J",
        "",
      ])
    #expect(out.all == ["done\n"])
  }
}
