import FeedParsing
import NewsCore

/// What the commands that act on articles (`show`, `open`, `bookmark`, `read`, …) share: the
/// argument naming them and the line confirming what was done to each.
enum ArticleArguments {
  /// `<id>`: one article.
  static let one = ArgumentSpec(name: "id", help: "Article id, list number, id prefix or URL.")

  /// `<id>...`: several (optional where `--all` can stand in).
  static func several(required: Bool = true) -> ArgumentSpec {
    ArgumentSpec(
      name: "id", help: "Article id, list number, id prefix or URL.", required: required,
      repeating: true)
  }

  /// `read: <title>`, a line per article, titles cleaned for the terminal.
  static func confirm(_ verb: String, _ articles: [Article], context: Context) {
    context.printer.lines(ArticleActionText.confirm(verb, articles))
  }
}
