import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `"keys"`, `"theme"`, `"colors"`, `"highlight"` and `"commands"` of `config.json` in the real
/// `news browse`, in a pseudo-terminal (#44).
@Suite("news browse made the reader's own, in a pseudo-terminal", .serialized)
struct BrowseShapeTerminalTests {
  let server: LoopbackServer
  let home = TemporaryDirectory()
  typealias Session = BrowseTerminalTests.Session

  init() throws {
    server = try LoopbackServer()
    server.route("/articles", .fixture("articles.json"))
  }

  /// The environment with `config` as `config.json`.
  func environment(_ config: String, extra: [String: String] = [:]) throws -> [String: String] {
    try FileManager.default.createDirectory(
      atPath: home.path("news"), withIntermediateDirectories: true)
    try Data(config.utf8).write(to: URL(fileURLWithPath: home.path("news/config.json")))
    return [
      "HOME": home.url.path, "NEWS_HOME": home.path("news"), "NEWS_ANALYTICS": "off",
      "NEWS_ARTICLES_URL": server.baseURL.absoluteString + "/articles", "NEWS_COUNTS": "off",
      "TERM": "xterm-256color", "LANG": "C.UTF-8", "SWIFT_BACKTRACE": "enable=no",
      "PATH": "/usr/bin:/bin",
    ].merging(extra) { $1 }
  }

  @Test("a rebinding works and shows in ?; a macro runs its actions in order; gg waits for g")
  func rebinding() async throws {
    let config = #"""
      {"keys": {"list": {"x": ["toggle-bookmark", "down"], "gg": "top", "g": null,
                         "B": "toggle-bookmark", "b": null}}}
      """#
    let session = try Session(
      arguments: ["browse", "--from", "articles"], environment: try environment(config))
    await session.wait(for: "· fresh")
    session.send("?")
    await session.wait(for: "macro: toggle-bookmark, down")
    #expect(session.screen.text.contains("  B "), "\(session.screen.text)")
    #expect(!session.screen.text.contains("  b "), "b is unbound")
    // Space pages through keys that overflow the screen; q goes back.
    session.send("q")
    // The footer is drawn from the bindings: B bookmarks now.
    await session.wait(for: "B bookmark")
    session.send("x")
    await session.wait(for: "bookmarked")
    #expect(session.screen.text.split(separator: "\n")[2].hasPrefix(">"), "x moved down too")
    session.send("g")
    await session.wait(for: "g…")
    session.send("g")
    await session.wait(for: "j/k move")
    #expect(session.screen.text.split(separator: "\n")[1].hasPrefix(">"), "gg went to the top")
    session.send("qq")
    #expect(await session.finish() == 0)
    #expect(server.unexpectedRequests.isEmpty)
  }

  @Test("a conflict is refused with exit 78 naming both sides, before the screen opens")
  func conflict() async throws {
    let session = try Session(
      arguments: ["browse", "--from", "articles"],
      environment: try environment(#"{"keys": {"list": {"gg": "top"}}}"#))
    #expect(await session.finish() == 78)
    #expect(session.output.contains("keys.list.gg"))
    #expect(session.output.contains("'g' (a default on list: top)"))
    #expect(!session.output.contains("\u{1B}[?1049h"), "no screen opened")
    #expect(server.requests.isEmpty, "no request made")
  }

  @Test("a theme and a highlight change the colours drawn; NO_COLOR draws none")
  func colours() async throws {
    let config = #"""
      {"theme": "dark", "colors": {"selection": {"bg": "#000080"}},
       "highlight": [{"query": "is:unread", "fg": "#ff0000"}, {"words": ["eget"], "underline": true}]}
      """#
    let session = try Session(
      arguments: ["browse", "--from", "articles"], environment: try environment(config))
    await session.wait(for: "· fresh")
    // xterm-256color: 256 colours. The dark header (black on cyan, its title bold), the
    // highlight's red as the 256 palette's nearest (196), the selection's navy (18).
    #expect(session.output.contains("\u{1B}[1;30;46m"))
    #expect(session.output.contains("38;5;196"))
    #expect(session.output.contains("48;5;18"))
    session.send("\r")
    await session.wait(for: "Link:")
    // The words are underlined in the text.
    #expect(session.output.contains("\u{1B}[4m") || session.output.contains(";4m"))
    session.send("qqq")
    #expect(await session.finish() == 0)

    let truecolor = try Session(
      arguments: ["browse", "--from", "articles"],
      environment: try environment(config, extra: ["COLORTERM": "truecolor"]))
    await truecolor.wait(for: "· fresh")
    #expect(truecolor.output.contains("38;2;255;0;0"))
    truecolor.send("qq")
    #expect(await truecolor.finish() == 0)

    let plain = try Session(
      arguments: ["browse", "--from", "articles"],
      environment: try environment(config, extra: ["NO_COLOR": "1"]))
    await plain.wait(for: "· fresh")
    plain.send("qq")
    #expect(await plain.finish() == 0)
    #expect(plain.output.range(of: #"\u{1B}\[[0-9;]*m"#, options: .regularExpression) == nil)
  }

  @Test("a key bound to a command sends the open article; its failure is said in the footer")
  func command() async throws {
    let received = home.path("received")
    let config = #"""
      {"commands": {"save": {"run": "cat > '\#(received)'", "input": "json"},
                    "broken": {"run": "exit 3", "input": "text"}},
       "keys": {"everywhere": {"W": "command:save", "X": "command:broken"}}}
      """#
    let session = try Session(
      arguments: ["browse", "--from", "articles"], environment: try environment(config))
    await session.wait(for: "· fresh")
    session.send("W")
    await session.wait(for: "sent to save")
    let document =
      try JSONSerialization.jsonObject(
        with: try Data(contentsOf: URL(fileURLWithPath: received))) as? [String: Any]
    #expect(document?["provider"] as? String == "articles")
    #expect((document?["title"] as? String)?.isEmpty == false)
    session.send("X")
    await session.wait(for: "command 'broken' failed (exit 3)")
    session.send("qq")
    #expect(await session.finish() == 0)
  }
}
