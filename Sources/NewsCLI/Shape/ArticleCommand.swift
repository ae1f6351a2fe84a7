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
  static func parse(_ value: Any?, file: String) throws(ConfigurationError) -> [String:
    ArticleCommand]
  {
    guard let value else { return [:] }
    func fail(_ field: String, _ problem: String) -> ConfigurationError {
      .invalidConfigFile(file: file, source: nil, field: field, problem: problem)
    }
    guard let object = value as? [String: Any] else {
      throw fail("commands", "must be an object: {\"name\": {\"run\": \"…\", \"input\": \"url\"}}")
    }
    var commands: [String: ArticleCommand] = [:]
    for (name, entry) in object.sorted(by: { $0.key < $1.key }) {
      let field = "commands." + name
      guard !name.isEmpty,
        name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_".contains($0)) })
      else { throw fail(field, "is not a command name (letters, digits, - and _)") }
      guard let entry = entry as? [String: Any] else {
        throw fail(field, "must be an object with run (and input)")
      }
      for key in entry.keys where key != "run" && key != "input" {
        throw fail(field + "." + key, "is not understood (run and input are)")
      }
      guard let run = entry["run"] as? String, !run.allSatisfy(\.isWhitespace) else {
        throw fail(
          field + ".run", "is missing: the shell command to run (\"run\": \"wallabag-add\")")
      }
      var input = Input.url
      if let given = entry["input"] {
        guard let text = given as? String, let read = Input(rawValue: text) else {
          throw fail(field + ".input", "must be one of url, json or text")
        }
        input = read
      }
      commands[name] = ArticleCommand(name: name, run: run, input: input)
    }
    return commands
  }
}
