import Foundation
import NewsCore
import TestSupport
import Testing

/// Sources for what has no feed, as newsboat runs them: `"exec"` (a command's output is the
/// document) and `"filter"` (the fetched document goes through a command first), run as hooks
/// run: allowed variables only, `NEWS_HOOK_TIMEOUT`, a failure saying the command's last words.
@Suite("sources: exec and filter commands")
struct CommandSourceTests {
  let harness: Harness

  init() throws {
    harness = try Harness()
    harness.server.route("/old.xml") { _ in
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "application/rss+xml"],
        body: Data(Self.rss(["Old title", "Old news"]).utf8))
    }
  }

  static func rss(_ titles: [String]) -> String {
    let items = titles.enumerated().map { index, title in
      "<item><title>\(title)</title><link>https://site.example/\(index)</link></item>"
    }
    return "<rss version=\"2.0\"><channel><title>T</title>\(items.joined())</channel></rss>"
  }

  /// `config.json` with the built-in sources off and `sources` beside them.
  func config(_ sources: String) throws -> [String: String?] {
    let off = ["a", "b", "c", "articles", "bbc"].map { #"{"name": "\#($0)", "enabled": false}"# }
    let file = try harness.home.write(
      "config.json", #"{"sources": [\#((off + [sources]).joined(separator: ", "))]}"#)
    return ["NEWS_CONFIG": file, "NEWSAPI_KEY": "s3cret-key"]
  }

  func titles(_ source: String, _ environment: [String: String?]) async throws -> [String] {
    let result = await harness.run(
      ["feed", "--source", source, "--json"], environment: environment)
    #expect(result.code == .success, "\(result.err)")
    let items = try #require(try result.json()["items"] as? [[String: Any]])
    return items.compactMap { $0["title"] as? String }
  }

  @Test("exec: the command's output is the feed; it gets the hooks' variables, never a secret")
  func exec() async throws {
    let script = try harness.home.write(
      "make-feed.sh",
      """
      printf '<rss version="2.0"><channel><title>Made</title>'
      printf '<item><title>Made by a script [%s]</title><link>https://made.example/1</link></item>' "$NEWSAPI_KEY"
      printf '<item><title>Second</title><link>https://made.example/2</link></item></channel></rss>'
      """)
    let environment = try config(#"{"name": "made", "exec": "sh \#(script)"}"#)
    #expect(try await titles("made", environment) == ["Made by a script []", "Second"])
    let listed = await harness.run(["sources"], environment: environment)
    #expect(listed.out.contains("exec: sh \(script)"), "\(listed.out)")
    #expect(harness.server.requests.isEmpty, "nothing is fetched")
  }

  @Test("filter: the fetched document goes through the command first")
  func filter() async throws {
    let base = harness.server.baseURL.absoluteString
    let environment = try config(
      #"{"name": "old", "url": "\#(base)/old.xml", "filter": "sed 's/Old/New/g'"}"#)
    #expect(try await titles("old", environment) == ["New title", "New news"])
    #expect(harness.server.requests(to: "/old.xml").count == 1)
  }

  @Test(
    "a command that fails, prints nothing or cannot be read fails the source, saying why",
    arguments: [
      (
        "echo 'no route to the site' >&2; exit 3",
        "its command failed (exit 3): no route to the site"
      ),
      ("echo 'said nothing else' >&2", "its command printed nothing: said nothing else"),
      ("kill -9 $$", "its command failed (signal 9)"),
    ])
  func failing(command: String, words: String) async throws {
    let escaped = command.replacingOccurrences(of: "'", with: "'").replacingOccurrences(
      of: "\"", with: "\\\"")
    let environment = try config(#"{"name": "bad", "exec": "\#(escaped)"}"#)
    let result = await harness.run(["feed", "--source", "bad"], environment: environment)
    #expect(result.code == .unavailable, "\(result.err)")
    #expect(result.err.contains("news: source bad: \(words)"), "\(result.err)")
    #expect(!result.err.contains("source bad: source bad"), "named once: \(result.err)")
  }

  @Test("a command that hangs is stopped at NEWS_HOOK_TIMEOUT: the source fails, said so")
  func hanging() async throws {
    let marker = harness.home.path("started")
    var environment = try config(
      #"{"name": "slow", "exec": "touch \#(marker); exec sleep 300"}"#)
    environment["NEWS_HOOK_TIMEOUT"] = "7"
    let result = await harness.run(
      ["feed", "--source", "slow"], environment: environment,
      deadline: passing(.seconds(7)) { FileManager.default.fileExists(atPath: marker) })
    #expect(result.code == .unavailable)
    #expect(
      result.err.contains("its command took longer than 7 s (NEWS_HOOK_TIMEOUT) and was stopped"),
      "\(result.err)")
  }

  @Test(
    "config.json: exec without url, filter with one, neither on a built-in or a saved search",
    arguments: [
      (
        #"{"name": "x", "exec": "true", "url": "https://x.example/"}"#,
        "does not apply to an exec source"
      ),
      (#"{"name": "x", "filter": "cat"}"#, "is missing (a filter source fetches it first)"),
      (#"{"name": "x", "exec": ""}"#, "must be a command"),
      (
        #"{"name": "x", "search": "climate", "exec": "true"}"#,
        "does not apply to a built-in source, a saved search"
      ),
    ])
  func declared(entry: String, words: String) async throws {
    let environment = try config(entry)
    let result = await harness.run(["sources"], environment: environment)
    #expect(result.code == .configuration, "\(result.err)")
    #expect(result.err.contains(words), "\(result.err)")
  }

  @Test("sources add --exec and --filter write config.json; the next feed runs them")
  func addFromCommandLine() async throws {
    let environment = try config(
      #"{"name": "kept", "url": "https://kept.example/rss", "enabled": false}"#)
    let feedFile = try harness.home.write("made.xml", Self.rss(["From a file"]))
    let exec = await harness.run(
      ["sources", "add", "--exec", "cat \(feedFile)", "--name", "made"], environment: environment)
    #expect(exec.code == .success, "\(exec.err)")
    #expect(
      exec.out.contains("added: made (exec: cat \(feedFile)); news feed --source made runs it"))
    let base = harness.server.baseURL.absoluteString
    let filter = await harness.run(
      ["sources", "add", base + "/old.xml", "--filter", "sed s/Old/New/g"], environment: environment
    )
    #expect(filter.code == .success, "\(filter.err)")
    #expect(
      filter.out.contains("added: sed (filter: sed s/Old/New/g \(base)/old.xml)"), "\(filter.out)")
    #expect(harness.server.requests.isEmpty, "nothing fetched when added")
    #expect(try await titles("made", environment) == ["From a file"])
    let filtered = try await titles("sed", environment)
    #expect(filtered == ["New title", "New news"], "\(filtered)")
    // An export names the filter's feed, unfiltered, and no exec: address no reader could ask.
    let exported = await harness.run(["sources", "export"], environment: environment)
    #expect(exported.out.contains("xmlUrl=\"\(base)/old.xml\""), "\(exported.out)")
    #expect(!exported.out.contains("exec:"), "\(exported.out)")
    #expect(exported.out.contains("https://kept.example/rss"))
    // Said on standard error, the OPML left whole: what went out in part, and what not at all.
    #expect(
      exported.err.contains("left out of the export: made (a command's output)\n"),
      "\(exported.err)")
    #expect(
      exported.err.contains(
        "exported at their feeds' addresses, without their filter commands: sed\n"))
  }

  @Test(
    "sources add: what --exec and --filter contradict",
    arguments: [
      (["--exec", "true", "https://x.example/"], "--exec takes no URL and no --filter"),
      (["--exec", "  "], "--exec needs a command"),
      (["https://x.example/", "--filter", ""], "--filter needs a command"),
      (["--exec", "true", "--search", "climate"], "--exec and --search contradict"),
      (
        ["https://x.example/", "--filter", "cat", "--account", "home"],
        "--filter and --account contradict"
      ),
    ])
  func contradictions(arguments: [String], words: String) async throws {
    let result = await harness.run(["sources", "add"] + arguments)
    #expect(result.code == .usage, "\(result.err)")
    #expect(result.err.contains(words), "\(result.err)")
  }
}
