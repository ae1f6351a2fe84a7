import NewsCore

/// An entry of `"commands"`: a program an article is sent to (a read-later service, a script),
/// from a key (`command:<name>`) or `news send <name>`. It runs as hooks do: through
/// `/bin/sh -c`, with hooks' environment (no secrets) and `NEWS_ITEM_*`, in a process group of
/// its own, within `NEWS_HOOK_TIMEOUT`; the article comes on standard input, never in its
/// command line.
struct ArticleCommand: Equatable, Sendable {
  /// What it reads on standard input.
  enum Input: String, CaseIterable, Sendable {
    /// The article's link and a newline.
    case url
    /// The ITEM document of `--json`, on one line.
    case json
    /// What `news show` prints, without colours.
    case text
  }

  var name: String
  /// The shell command.
  var run: String
  var input: Input

  /// Reads `"commands"`: `{"wallabag": {"run": "wallabag-add", "input": "url"}}`.
  static func parse(_ node: ConfigNode?) throws(ConfigurationError) -> [String: ArticleCommand] {
    guard let node else { return [:] }
    var commands: [String: ArticleCommand] = [:]
    let members = try node.members(
      "must be an object: {\"name\": {\"run\": \"…\", \"input\": \"url\"}}")
    for (name, entry) in members {
      guard !name.isEmpty,
        name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_".contains($0)) })
      else { throw entry.fail("is not a command name (letters, digits, - and _)") }
      try entry.requireObject("must be an object with run (and input)")
      try entry.refuseOthers(than: ["run", "input"], "is not understood (run and input are)")
      let missing = "is missing: the shell command to run (\"run\": \"wallabag-add\")"
      guard let run = entry["run"]?.text, !run.allSatisfy(\.isWhitespace) else {
        throw entry.fail(at: "run", missing)
      }
      var input = Input.url
      if let given = entry["input"] {
        guard let text = given.text, let read = Input(rawValue: text) else {
          throw given.fail("must be one of url, json or text")
        }
        input = read
      }
      commands[name] = ArticleCommand(name: name, run: run, input: input)
    }
    return commands
  }
}
