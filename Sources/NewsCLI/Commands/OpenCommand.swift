import Foundation
import NewsCore

/// `news open <id|n>`: an article's link in the browser, marking it read.
enum OpenCommand {
  static let spec = CommandSpec(
    name: "open",
    abstract: "Open an article's link in the browser (and mark it read).",
    discussion: """
      The browser is $BROWSER (a command, or several separated by ':', the first one found wins;
      %s stands for the link), else xdg-open (open on macOS). Without any, the link is printed.
      Only http and https links are opened, as one argument, never through a shell.

      EXAMPLES:
        news feed && news open 3
        BROWSER=w3m news open 1
      """,
    arguments: [ArticleArguments.one])

  static let entry = CommandEntry(spec: spec, run: run)

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let lists = try context.services(try context.configuration()).lists()
    let article = try lists.article(arguments.positionals[0])
    guard let link = article.url, URL(string: link)?.isWeb == true else {
      throw OpenError.noLink(id: article.id)
    }
    if let browser = Browser.find(environment: context.environment) {
      try browser.open(link)
    } else {
      context.console.out(TerminalSanitizer.clean(link) + "\n")
    }
    if let warning = lists.shown(article.id).warning { context.warn(warning) }
    return .success
  }
}
