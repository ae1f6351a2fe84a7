import Foundation
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

  func run(_ arguments: [String], environment: [String: String]) throws -> (Int32, String, String) {
    let process = Process()
    process.executableURL = Self.binary
    process.arguments = arguments
    process.environment = environment
    let home = TemporaryDirectory()
    process.currentDirectoryURL = home.url
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: outData, as: UTF8.self),
      String(decoding: errData, as: UTF8.self)
    )
  }

  @Test("news headlines --json works against a newsapi-compatible server")
  func headlinesJSON() throws {
    let server = try LoopbackServer()
    server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    let home = TemporaryDirectory()
    let (status, out, err) = try run(
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

  @Test("an unknown option exits 64 with one line on stderr")
  func unknownOption() throws {
    let (status, out, err) = try run(["headlines", "--pagesize", "3"], environment: [:])
    #expect(status == 64)
    #expect(out.isEmpty)
    #expect(
      err
        == "news: unknown option '--pagesize' for 'news headlines'; did you mean '--page-size'? (see 'news headlines --help')\n"
    )
  }
}
