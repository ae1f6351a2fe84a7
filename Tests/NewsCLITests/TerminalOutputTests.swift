import FeedParsing
import Foundation
import NewsCore
import TestSupport
import Testing

@Suite("Terminal output: retry notices, colours, TERM=dumb, NO_COLOR, COLUMNS, help")
struct TerminalOutputTests {
  let harness: Harness

  init() throws { harness = try Harness() }

  @Test("on a terminal a retry shows a transient line, erased after; the list follows")
  func retryNotice() async throws {
    harness.server.route(
      "/v2/top-headlines",
      responses: [
        .json("{}", status: 500), .json("{}", status: 503),
        .fixture("top-headlines-us-2022-02-17.json"),
      ])
    let result = await harness.run(["headlines"], terminal: true)
    #expect(result.code == .success)
    #expect(
      result.err
        == "\r\u{1B}[Kretrying 127.0.0.1 in 2 s (attempt 2 of 4)…\r\u{1B}[K"
        + "\r\u{1B}[Kretrying 127.0.0.1 in 2 s (attempt 3 of 4)…\r\u{1B}[K")
  }

  @Test("a failure is one red line on a terminal, saying how many attempts were made")
  func redError() async throws {
    harness.server.route("/v2/top-headlines", .json("{}", status: 500))
    let result = await harness.run(["headlines", "--json"], terminal: true)
    #expect(result.code == .unavailable)
    #expect(
      result.err.hasSuffix(
        "\u{1B}[31mnews: newsapi.org answered HTTP 500 (internal server error) after 4 attempts\u{1B}[0m\n"
      ))
  }

  @Test(
    "TERM=dumb and NO_COLOR (from the environment or .env): not one escape sequence, no progress",
    arguments: [["TERM": "dumb"], ["NO_COLOR": "1"], [:]])
  func noEscapes(environment: [String: String]) async throws {
    if environment.isEmpty { _ = try harness.home.write(".env", "NO_COLOR=1\n") }
    harness.server.route("/v2/top-headlines", .json("{}", status: 500))
    let failed = await harness.run(["headlines"], environment: environment, terminal: true)
    #expect(
      failed.err
        == "news: newsapi.org answered HTTP 500 (internal server error) after 4 attempts\n")
    for name in ["a", "b", "c"] {
      harness.server.route("/feed/\(name).json", .fixture("source_\(name).readme-sample.json"))
    }
    let feed = await harness.run(["feed"], environment: environment, terminal: true)
    #expect(feed.code == .success)
    #expect(!feed.out.contains("\u{1B}"))
    #expect(feed.err.isEmpty)
  }

  @Test("COLUMNS from .env is honoured like every other variable")
  func columnsFromDotEnv() async throws {
    _ = try harness.home.write(".env", "COLUMNS=40\n")
    harness.server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
    let result = await harness.run(["headlines"], width: 120)
    #expect(result.code == .success)
    let lines = result.out.split(separator: "\n").filter { !$0.contains("://") }
    #expect(lines.allSatisfy { TextWrapper.columns($0) <= 40 })
  }

  @Test("a bad COLUMNS is exit 78 naming it", arguments: ["wide", "0", "-3"])
  func badColumns(value: String) async {
    let result = await harness.run(["headlines"], environment: ["COLUMNS": value])
    #expect(result.code == .configuration)
    #expect(result.err.hasPrefix("news: COLUMNS='\(value)' is not valid"))
  }

  @Test("help is wrapped to the width; news --help <command> is that command's help")
  func help() async {
    let wrapped = await harness.run(["--help", "headlines"], environment: ["COLUMNS": "50"])
    #expect(wrapped.code == .success)
    #expect(wrapped.out.hasPrefix("Show the latest top headlines"))
    // Every line fits, but examples, which are never broken so that they can be pasted.
    #expect(
      wrapped.out.split(separator: "\n").allSatisfy { $0.count <= 50 || $0.hasPrefix("  news ") })
    let same = await harness.run(["headlines", "--help"], environment: ["COLUMNS": "50"])
    #expect(same.out == wrapped.out)
  }

  @Test(
    "every usage error ends with where to read more",
    arguments: [
      (["headlines", "--country", "usa"], "(see 'news headlines --help')"),
      (["show", "99"], "or pass an id or URL; see 'news show --help')"),
      (["search", "x", "--language", "fr"], "(see 'news search --help')"),
      (["nonsense"], "(see 'news --help')"),
    ])
  func usageHints(arguments: [String], hint: String) async {
    let result = await harness.run(arguments)
    #expect(result.code == .usage)
    #expect(result.err.hasSuffix(hint + "\n"))
    #expect(result.err.split(separator: "\n").count == 1)
  }
}
