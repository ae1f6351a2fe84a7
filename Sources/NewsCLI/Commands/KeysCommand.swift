import Foundation
import NewsCore

/// `news keys`: what each key does in `news browse`, with `"keys"` of `config.json` applied.
enum KeysCommand {
  static let spec = CommandSpec(
    name: "keys",
    abstract: "List news browse's keys: the defaults and config.json's \"keys\".",
    discussion: """
      Per screen (home, list, article): the keys, the action or macro they run, and what it
      does. Keys are changed in config.json: "keys": {"list": {"m": "toggle-read", "gg": "top",
      "g": null, "W": "command:wallabag", "x": ["toggle-read", "next-unread"]}}, and
      "everywhere" for every screen. docs/commands.md lists every action.

      EXAMPLES:
        news keys
        news keys --json | jq '.bindings[] | select(.default | not)'
      """,
    options: [Options.json.spec])

  static let entry = CommandEntry(spec: spec, run: run)

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let shape = try context.settings().shape
    if arguments[Options.json] {
      context.printer.json(KeyTable.json(shape.keys, commands: shape.commands))
    } else {
      context.printer.text(KeyTable.text(shape.keys))
    }
    return .success
  }
}
