import FeedParsing
import Foundation
import NewsCore

/// `news send <name> <id|n>…`: articles sent to a command of `"commands"` in `config.json`.
enum SendCommand {
  static let spec = CommandSpec(
    name: "send",
    abstract: "Send articles to a command of config.json (a read-later service, a script).",
    discussion: """
      The command is one of "commands" in config.json: {"wallabag": {"run": "wallabag-add",
      "input": "url"}}. It gets the article on standard input (url: its link; json: its ITEM
      document; text: what news show prints) and NEWS_ITEM_ID, NEWS_ITEM_TITLE, NEWS_ITEM_URL
      and NEWS_ITEM_SOURCE in its environment, as hooks do (no secrets; NEWS_HOOK_TIMEOUT);
      never the article in its command line. A command that fails is exit 69, naming it. In
      news browse, bind it to a key: "keys": {"list": {"W": "command:wallabag"}}.

      EXAMPLES:
        news send wallabag 3
        news send archive 1 2 5
      """,
    arguments: [
      ArgumentSpec(name: "name", help: "A command of \"commands\" in config.json."),
      ArticleArguments.several(),
    ])

  static let entry = CommandEntry(spec: spec, run: run)

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let name = try arguments.argument("name")
    let commands = try context.settings().shape.commands
    guard let command = commands[name] else {
      throw SendError.unknownCommand(name, among: commands.keys.sorted())
    }
    let services = try context.services()
    let lists = try services.lists()
    let articles = try lists.articles(Array(arguments.positionals.dropFirst()))
    var failures: [String] = []
    for article in articles {
      if let failure = await ArticleSender.send(
        article, to: command, services: services, context: context)
      {
        failures.append(failure)
      } else {
        context.printer.line(ArticleActionText.sent(to: name, article))
      }
    }
    guard failures.isEmpty else { throw SendError.failed(failures) }
    return .success
  }
}

/// Why `news send` did not send.
enum SendError: NewsError {
  /// The name is not one of `"commands"`.
  case unknownCommand(String, among: [String])
  /// The command failed for some articles: each failure said.
  case failed([String])

  var message: String {
    switch self {
    case .unknownCommand(let name, let names):
      let suggestion = EditDistance.closest(to: name, in: names).map { " (did you mean \($0)?)" }
      return "no command '\(name)' in config.json's \"commands\""
        + (suggestion
          ?? (names.isEmpty ? ": it declares none" : ": " + names.joined(separator: ", ")))
    case .failed(let failures):
      return failures.joined(separator: "; ")
    }
  }

  var exitCode: ExitCode {
    switch self {
    case .unknownCommand: .usage
    case .failed: .unavailable
    }
  }
}
