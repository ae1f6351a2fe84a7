import FeedParsing
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import NewsCore

/// `news download`'s engine on loopback, through both real clients: whole files, resumed parts,
/// servers that ignore ranges, changed files, the size limit.
@Suite("Downloads (libcurl, URLSession)")
struct DownloadServiceTests {
  let server: LoopbackServer
  let directory = TemporaryDirectory()
  let downloads = TemporaryDirectory()
  let pauses = Recorder<Duration>()

  init() throws { server = try LoopbackServer() }

  /// A file of `count` bytes that no two offsets confuse.
  static func episode(_ count: Int = 300_000) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
  }

  func store() -> ArticleStore {
    ArticleStore.testing(
      in: directory.url, retention: .everything,
      now: { Date(timeIntervalSince1970: 1_700_000_000) })
  }

  func service(_ client: RealClient, retries: Int = 0, maximum: Int64 = 1 << 30) throws
    -> DownloadService
  {
    let settings = DownloadSettings(
      directory: downloads.url, name: try DownloadName(DownloadName.defaultTemplate),
      concurrency: 3, maximumBytes: maximum)
    return DownloadService(
      transport: HTTPTransport(
        client: try client.make(), retryPolicy: RetryPolicy(delay: .zero), timing: .test()),
      store: store(), settings: settings,
      retryPolicy: RetryPolicy(retries: retries, delay: .seconds(1)),
      timing: .test(pauses: pauses))
  }

  /// An article of source `cast` whose episode is at `path` on the server.
  func article(_ path: String = "/ep1.mp3", title: String = "Episode 1") throws -> Article {
    let article = Article(
      id: "cast-\(title)", provider: "cast", title: title,
      publishedAt: Date(timeIntervalSince1970: 1_700_000_000))
    try store().keepEnclosures([
      article.id: [
        Enclosure(url: server.baseURL.absoluteString + "/cover.jpg", type: "image/jpeg"),
        Enclosure(url: server.baseURL.absoluteString + path, type: "audio/mpeg"),
      ]
    ])
    return article
  }

  func download(_ service: DownloadService, _ article: Article, onlyNew: Bool = false) async throws
    -> DownloadOutcome
  {
    let jobs = try service.jobs(for: [article], onlyNew: onlyNew)
    #expect(jobs.count == 1, "only the audio is a job, not the image")
    return try #require(await service.run(jobs).first)
  }

  @Test(
    "a file arrives whole under its template's name; the second time it is already there",
    arguments: RealClient.allCases)
  func whole(client: RealClient) async throws {
    let body = Self.episode()
    server.route("/ep1.mp3") { .file(body, for: $0, etag: "\"v1\"") }
    let service = try service(client)
    let outcome = try await download(service, article())
    #expect(outcome.error == nil, "\(outcome.error?.message ?? "")")
    let path = downloads.path("cast/2023-11-14 Episode 1.mp3")
    #expect(outcome.job.path == path)
    #expect(FileManager.default.contents(atPath: path) == body)
    #expect(!FileManager.default.fileExists(atPath: path + ".part"))
    let record = try #require(try store().downloads()[server.baseURL.absoluteString + "/ep1.mp3"])
    #expect(record.isFinished && record.bytes == Int64(body.count) && record.validator == "\"v1\"")
    #expect(server.requests(to: "/ep1.mp3").first?.headers["range"] == nil)
    // Asked again: nothing is fetched; with --new it is not even a job.
    let again = try await download(service, article())
    #expect(again.status == "already" && again.job.path == path)
    #expect(try service.jobs(for: [article()], onlyNew: true).isEmpty)
    #expect(server.requests(to: "/ep1.mp3").count == 1)
    #expect(try service.file(of: server.baseURL.absoluteString + "/ep1.mp3") == path)
  }

  @Test(
    "a transfer cut off half way is resumed from its part with Range and If-Range",
    arguments: RealClient.allCases)
  func resumed(client: RealClient) async throws {
    let body = Self.episode()
    let half = body.count / 2
    server.route("/ep1.mp3") { request in
      var cut = LoopbackServer.Response.file(body, for: request, etag: "\"v1\"")
      cut.truncatedAfter = half
      return cut
    }
    let service = try service(client)
    let first = try await download(service, article())
    let error = try #require(first.error as? DownloadError)
    guard case .interrupted(_, _, let kept, let part) = error else {
      Issue.record("not interrupted: \(error)")
      return
    }
    #expect(kept == Int64(half) && error.exitCode == .temporaryFailure)
    #expect(FileManager.default.contents(atPath: part) == body.prefix(half))
    // The next run (as after a kill) asks for the rest of that very version.
    server.route("/ep1.mp3") { .file(body, for: $0, etag: "\"v1\"") }
    let second = try await download(service, article())
    #expect(second.error == nil && second.resumedFrom == Int64(half))
    let asked = try #require(server.requests(to: "/ep1.mp3").last)
    #expect(asked.headers["range"] == "bytes=\(half)-")
    #expect(asked.headers["if-range"] == "\"v1\"")
    #expect(FileManager.default.contents(atPath: second.job.path) == body)
    // Every byte crossed the wire once.
    #expect(server.bytesSent(to: "/ep1.mp3") == body.count)
  }

  @Test(
    "within one run a dropped transfer is resumed at once, after the retry pause",
    arguments: RealClient.allCases)
  func retriedInRun(client: RealClient) async throws {
    let body = Self.episode()
    let calls = Recorder<Int>()
    server.route("/ep1.mp3") { request in
      calls.record(1)
      var response = LoopbackServer.Response.file(body, for: request, etag: "\"v1\"")
      if calls.all.count == 1 { response.truncatedAfter = 1000 }
      return response
    }
    let outcome = try await download(try service(client, retries: 2), article())
    #expect(outcome.error == nil, "\(outcome.error?.message ?? "")")
    #expect(FileManager.default.contents(atPath: outcome.job.path) == body)
    #expect(server.requests(to: "/ep1.mp3").last?.headers["range"] == "bytes=1000-")
    #expect(pauses.all == [.seconds(1)])
  }

  @Test(
    "a server that ignores Range sends it all again: the part is emptied first",
    arguments: RealClient.allCases)
  func rangeIgnored(client: RealClient) async throws {
    let body = Self.episode()
    server.route("/ep1.mp3") { .file(body, for: $0, honoursRange: false) }
    let service = try service(client)
    let article = try article()
    let path = try #require(try service.jobs(for: [article], onlyNew: false).first?.path)
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    // A part left by an earlier run the store remembers.
    try Data(repeating: 0xEE, count: 5000).write(to: URL(fileURLWithPath: path + ".part"))
    try store().noteDownload(
      DownloadRecord(article: article.id, path: path, bytes: 5000),
      of: server.baseURL.absoluteString + "/ep1.mp3")
    let outcome = try await download(service, article)
    #expect(outcome.error == nil)
    #expect(server.requests(to: "/ep1.mp3").first?.headers["range"] == "bytes=5000-")
    #expect(FileManager.default.contents(atPath: path) == body)
  }

  @Test(
    "a file changed on the server starts over; a part past its end (416) too",
    arguments: RealClient.allCases)
  func changedFile(client: RealClient) async throws {
    let old = Self.episode(200_000)
    let new = Data(Self.episode(120_000).reversed())
    let service = try service(client)
    let article = try article()
    let url = server.baseURL.absoluteString + "/ep1.mp3"
    let path = try #require(try service.jobs(for: [article], onlyNew: false).first?.path)
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try old.prefix(150_000).write(to: URL(fileURLWithPath: path + ".part"))
    try store().noteDownload(
      DownloadRecord(article: article.id, path: path, bytes: 150_000, validator: "\"v1\""), of: url)
    // If-Range "v1" no longer matches "v2": the whole new file comes.
    server.route("/ep1.mp3") { .file(new, for: $0, etag: "\"v2\"") }
    let outcome = try await download(service, article)
    #expect(outcome.error == nil)
    #expect(FileManager.default.contents(atPath: path) == new)
    // A part longer than the file, and no validator: 416, then from byte 0.
    try FileManager.default.removeItem(atPath: path)
    try old.write(to: URL(fileURLWithPath: path + ".part"))
    try store().noteDownload(
      DownloadRecord(article: article.id, path: path, bytes: 200_000), of: url)
    let restarted = try await download(service, article)
    #expect(restarted.error == nil)
    #expect(
      server.requests(to: "/ep1.mp3").suffix(2).map { $0.headers["range"] } == [
        "bytes=200000-", nil,
      ])
    #expect(FileManager.default.contents(atPath: path) == new)
  }

  @Test(
    "the size limit: a declared length over it is refused before any byte, a streamed body as it passes",
    .timeLimit(.minutes(10)), arguments: RealClient.allCases)
  func sizeLimit(client: RealClient) async throws {
    server.route("/ep1.mp3") { .file(Self.episode(100_000), for: $0) }
    let service = try service(client, maximum: 50_000)
    let declared = try await download(service, article())
    #expect(
      declared.error as? DownloadError
        == .tooLarge(url: server.baseURL.absoluteString + "/ep1.mp3", limit: 50_000))
    #expect(declared.error?.message.contains("NEWS_DOWNLOAD_MAX") == true)
    #expect(!FileManager.default.fileExists(atPath: declared.job.path + ".part"))
    #expect(try store().downloads().isEmpty)
    // No length said: counted as it arrives, and stopped there. The body is all but endless
    // (10 GB): a client that read on past the limit would not end before the server does.
    server.route("/ep2.mp3", .streamed(Data(repeating: 7, count: 10_000), count: 1_000_000))
    let streamed = try await download(service, article("/ep2.mp3", title: "Episode 2"))
    #expect(streamed.error?.exitCode == .dataError)
    #expect(!FileManager.default.fileExists(atPath: streamed.job.path + ".part"))
    #expect(server.bytesSent(to: "/ep2.mp3") < 10_000_000_000)
  }

  @Test(
    "an error status is the status, a redirect is followed to the file",
    arguments: RealClient.allCases)
  func statusAndRedirect(client: RealClient) async throws {
    server.route("/gone.mp3", .json("{}", status: 404))
    let service = try service(client)
    let gone = try await download(service, article("/gone.mp3", title: "Gone"))
    #expect(
      gone.error as? DownloadError
        == .status(url: server.baseURL.absoluteString + "/gone.mp3", code: 404))
    // Nothing came: no empty part, nothing remembered.
    #expect(!FileManager.default.fileExists(atPath: gone.job.path + ".part"))
    #expect(try store().downloads()[server.baseURL.absoluteString + "/gone.mp3"] == nil)
    let body = Self.episode(50_000)
    server.route("/moved.mp3", .redirect(302, to: "/real.mp3"))
    server.route("/real.mp3") { .file(body, for: $0) }
    let moved = try await download(service, article("/moved.mp3", title: "Moved"))
    #expect(moved.error == nil)
    #expect(FileManager.default.contents(atPath: moved.job.path) == body)
  }

  @Test(
    "a server whose length said more than it sent, then that the end came: whole, with a warning",
    arguments: RealClient.allCases)
  func overstatedLength(client: RealClient) async throws {
    let body = Self.episode(1_000)
    let sent = body.prefix(900)
    server.route("/ep1.mp3") { request in
      // Asked for the rest, it says the file ends at 900 (`416`, `bytes */900`).
      guard request.headers["range"] == nil else { return .file(Data(sent), for: request) }
      var cut = LoopbackServer.Response(headers: ["Content-Type": "audio/mpeg"], body: body)
      cut.truncatedAfter = 900
      return cut
    }
    let service = try service(client)
    let first = try await download(service, article())
    #expect(first.error?.exitCode == .temporaryFailure)
    // Before, every later run said "run again to resume", for ever.
    let second = try await download(service, article())
    #expect(second.error == nil, "\(String(describing: second.error?.message))")
    #expect(second.warning?.contains("ends at 900 bytes") == true)
    #expect(FileManager.default.contents(atPath: second.job.path) == Data(sent))
    let third = try await download(service, article())
    #expect(third.error == nil && third.job.isDone)
  }

  @Test("a part another download is writing is refused (exit 75), never written by two")
  func busy() async throws {
    server.route("/ep1.mp3") { .file(Self.episode(), for: $0) }
    let service = try service(.curl)
    let article = try article()
    let path = try #require(try service.jobs(for: [article], onlyNew: false).first?.path)
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    // What another run leaves while it downloads: the record first, then its part, held.
    try store().noteDownload(
      DownloadRecord(article: article.id, path: path, bytes: 0),
      of: server.baseURL.absoluteString + "/ep1.mp3")
    let holder = try PartFile(path: path + ".part", url: "x", limit: 1 << 30) { _, _ in }
    let outcome = try await download(service, article)
    #expect(outcome.error as? DownloadError == .busy(path: path + ".part"))
    #expect(outcome.error?.exitCode == .temporaryFailure)
    #expect(server.requests(to: "/ep1.mp3").isEmpty)
    withExtendedLifetime(holder) {}
  }

  @Test("an attempt's part, let go, is the next attempt's, though something still holds it")
  func released() throws {
    let directory = TemporaryDirectory()
    let path = directory.url.appendingPathComponent("episode.mp3.part").path
    // What a client's thread does when it lets a transfer's stream go a moment late.
    let late = try PartFile(path: path, url: "x", limit: 1 << 30) { _, _ in }
    #expect(throws: DownloadError.busy(path: path)) {
      try PartFile(path: path, url: "x", limit: 1 << 30) { _, _ in }
    }
    late.release()
    let next = try PartFile(path: path, url: "x", limit: 1 << 30) { _, _ in }
    #expect(next.offset == 0)
    withExtendedLifetime(late) {}
  }

  @Test("a lock the earlier attempt's part still holds a moment (a child's copy) is waited for")
  func waitedFor() throws {
    let directory = TemporaryDirectory()
    let path = directory.url.appendingPathComponent("episode.mp3.part").path
    // The copy a child process started at that moment holds until it runs its program.
    let copy = try PartFile(path: path, url: "x", limit: 1 << 30) { _, _ in }
    let asked = Mutex(0)
    let whenBusy: @Sendable () -> Bool = {
      // The child runs its program: the copy goes.
      asked.withLock { $0 += 1 }
      copy.release()
      return true
    }
    let next = try PartFile(
      path: path, url: "x", limit: 1 << 30, whenBusy: whenBusy, progress: { _, _ in })
    #expect(asked.withLock { $0 } == 1)
    #expect(next.offset == 0)
    // Refused when no wait is given, or the wait gives up.
    #expect(throws: DownloadError.busy(path: path)) {
      try PartFile(
        path: path, url: "x", limit: 1 << 30, whenBusy: { false }, progress: { _, _ in })
    }
    withExtendedLifetime(next) {}
  }

  @Test("names: taken ones get a number, two files of one item two names, a template's {n}")
  func names() async throws {
    let service = try service(.curl)
    let base = server.baseURL.absoluteString
    let article = Article(id: "x", provider: "cast", title: "Two files")
    try store().keepEnclosures([
      "x": [
        Enclosure(url: base + "/a.mp3", type: "audio/mpeg"),
        Enclosure(url: base + "/b", type: "video/mp4"),
      ]
    ])
    try FileManager.default.createDirectory(
      atPath: downloads.path("cast"), withIntermediateDirectories: true)
    try Data().write(to: URL(fileURLWithPath: downloads.path("cast/undated Two files.mp3")))
    let jobs = try service.jobs(for: [article], onlyNew: false)
    #expect(
      jobs.map(\.path) == [
        downloads.path("cast/undated Two files (2).mp3"),
        downloads.path("cast/undated Two files.mp4"),
      ])
    #expect(jobs.map(\.number) == [1, 2])
  }
}
