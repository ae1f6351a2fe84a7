import Foundation
import NewsCore
import TestSupport
import Testing

/// Runs the built `news` executable as a user would, against the loopback server.
@Suite("the news binary, end to end")
struct BinaryTests {
  static let binary: URL = {
    // The test bundle sits beside the products in .build/<configuration>/.
    var directory = Bundle.main.bundleURL
    if directory.pathExtension == "xctest" { directory.deleteLastPathComponent() }
    let candidates =
      [directory, Bundle.main.bundleURL.deletingLastPathComponent()]
      + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
    for candidate in candidates {
      let url = candidate.appendingPathComponent("news")
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return directory.appendingPathComponent("news")
  }()

  /// Runs the binary; `stdout` replaces the pipe standard output is read from (`/dev/full`).
  func run(
    _ arguments: [String], environment: [String: String], stdout: FileHandle? = nil,
    directory: URL? = nil, executable: URL = Self.binary
  ) async throws -> (Int32, String, String) {
    let home = TemporaryDirectory()
    let process = try Spawned(
      executable, arguments: arguments,
      environment: environment.merging(SanitizerOptions.inherited) { $1 },
      directory: directory ?? home.url,
      output: stdout.map { .descriptor($0.fileDescriptor) } ?? .pipe,
      errors: .pipe)
    let (termination, outData, errData) = await process.collect()
    return (
      termination.status, String(decoding: outData, as: UTF8.self),
      String(decoding: errData, as: UTF8.self)
    )
  }

  func environment(_ server: LoopbackServer, home: TemporaryDirectory) -> [String: String] {
    let base = server.baseURL.absoluteString
    return [
      "HOME": home.url.path, "NEWS_HOME": home.path("n"), "NEWSAPI_KEY": "k", "NEWSAPI_URL": base,
      "NEWS_ARTICLES_URL": base + "/articles", "NEWS_BBC_URL": base + "/bbc.json",
      "NEWS_FEED_A_URL": base + "/feed/a.json", "NEWS_FEED_B_URL": base + "/feed/b.json",
      "NEWS_FEED_C_URL": base + "/feed/c.json", "NEWS_ANALYTICS": "off",
      "NEWS_RETRY_DELAY": "0",
    ]
  }

  @Test(
    "output to a full disk is one line on stderr and exit 74, never a crash",
    arguments: [["headlines", "--json"], ["sync"], ["--help"], ["headlines"]])
  func fullDisk(arguments: [String]) async throws {
    let server = try LoopbackServer()
    server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    server.route("/articles", .fixture("articles.json"))
    server.route("/bbc.json", .fixture("headlines.json"))
    for name in ["a", "b", "c"] {
      server.route("/feed/\(name).json", .fixture("source_\(name).readme-sample.json"))
    }
    let home = TemporaryDirectory()
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    let (status, _, err) = try await run(
      arguments, environment: environment(server, home: home), stdout: full)
    #expect(status == 74)
    #expect(err == "news: cannot write to standard output: no space left on device\n")
  }

  @Test("a run writes nothing outside NEWS_HOME: no URL cache, no cookie store")
  func nothingOutsideHome() async throws {
    let server = try LoopbackServer()
    server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    let home = TemporaryDirectory()
    let work = home.url.appendingPathComponent("work")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    let (status, _, err) = try await run(
      ["headlines"], environment: environment(server, home: home), directory: work)
    #expect(status == 0, "\(err)")
    let created = try FileManager.default.contentsOfDirectory(atPath: home.url.path).sorted()
    #expect(created == ["n", "work"])
    // Under `swift test --enable-code-coverage` the binary's coverage runtime writes its
    // default.profraw here: that is the build's instrumentation, not the program.
    let written = try FileManager.default.contentsOfDirectory(atPath: work.path)
    #expect(written.filter { !$0.hasSuffix(".profraw") }.isEmpty)
  }

  @Test(
    "an endless body is refused with exit 65 while memory stays near the cap",
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"),
      "the endless body's memory is measured through python3, which is missing"))
  func endlessBody() async throws {
    let server = try LoopbackServer()
    // 1 GiB offered; reading it all (as before) took the process past 1 GB of memory.
    server.route("/articles", .streamed(Data(repeating: 0x20, count: 64 << 10), count: 16_384))
    let home = TemporaryDirectory()
    // Measured by a small parent of its own: a child spawned from this test process starts in
    // its memory (posix_spawn shares it until exec), so the test's own children report the size
    // of the whole test process, not of `news`.
    let python = URL(fileURLWithPath: "/usr/bin/python3")
    let peak = home.path("peak")
    let measure = """
      import resource, subprocess, sys
      code = subprocess.call([sys.argv[1]] + sys.argv[3:])
      open(sys.argv[2], "w").write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
      sys.exit(code)
      """
    let (status, _, err) = try await run(
      ["-c", measure, Self.binary.path, peak, "headlines", "--from", "articles"],
      environment: environment(server, home: home), executable: python)
    #expect(status == 65)
    #expect(err.contains("sent more than 10 MiB"))
    #expect(server.requests(to: "/articles").count == 1)
    let kibibytes = try #require(Int(String(contentsOfFile: peak, encoding: .utf8)))
    #expect(kibibytes > 0 && kibibytes < 200 * 1024, "peak \(kibibytes) KiB")
  }

  @Test("news headlines --json works against a newsapi-compatible server")
  func headlinesJSON() async throws {
    let server = try LoopbackServer()
    server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    let home = TemporaryDirectory()
    let (status, out, err) = try await run(
      ["headlines", "--json"],
      environment: [
        "HOME": home.url.path, "NEWS_HOME": home.path("n"), "NEWSAPI_KEY": "k",
        "NEWSAPI_URL": server.baseURL.absoluteString, "NEWS_ANALYTICS": "off",
      ])
    #expect(status == 0)
    #expect(err.isEmpty)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
    let articles = try #require(document["articles"] as? [[String: Any]])
    #expect(articles.first?["title"] as? String != nil)
    #expect(server.requests.first?.headers["x-api-key"] == "k")
  }

  @Test("in a pipe nothing is wrapped unless COLUMNS says a width; a link never is (#47.3)")
  func pipeWidth() async throws {
    let server = try LoopbackServer()
    server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    let home = TemporaryDirectory()
    var environment = [
      "HOME": home.url.path, "NEWS_HOME": home.path("n"), "NEWSAPI_KEY": "k",
      "NEWSAPI_URL": server.baseURL.absoluteString, "NEWS_ANALYTICS": "off",
    ]
    let (status, out, _) = try await run(["headlines"], environment: environment)
    #expect(status == 0)
    // A description of the fixture is longer than 80 columns: on one line in a pipe.
    #expect(out.split(separator: "\n").contains { $0.count > 120 }, "\(out.prefix(600))")
    environment["COLUMNS"] = "40"
    let (_, narrow, _) = try await run(["headlines", "--offline"], environment: environment)
    #expect(
      narrow.split(separator: "\n").allSatisfy { $0.count <= 40 || $0.contains("://") },
      "\(narrow.prefix(600))")
  }

  @Test("an unknown option exits 64 with one line on stderr")
  func unknownOption() async throws {
    let (status, out, err) = try await run(["headlines", "--pagesize", "3"], environment: [:])
    #expect(status == 64)
    #expect(out.isEmpty)
    #expect(
      err
        == "news: unknown option '--pagesize' for 'news headlines'; did you mean '--page-size'? (see 'news headlines --help')\n"
    )
  }
}
