import FeedParsing
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
      Only http and https links are opened, as one argument, never through a shell. With <link>,
      the link of that number in the article's text (news show lists them as [1], [2], …).

      EXAMPLES:
        news feed && news open 3
        news open 3 2
        BROWSER=w3m news open 1
      """,
    arguments: [
      ArticleArguments.one,
      ArgumentSpec(
        name: "link", help: "The number of a link in its text.", required: false,
        kind: .integer(1...Int.max)),
    ])

  static let entry = CommandEntry(spec: spec, run: run)

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let lists = try context.services().lists()
    let article = try lists.article(try arguments.argument("id"))
    var link = article.url
    if arguments.optionalArgument("link") != nil {
      let number = try arguments.number("link")
      let links = HTMLText.links(in: article.content ?? "")
      guard links.indices.contains(number - 1) else {
        throw OpenError.noSuchLink(id: article.id, number: number, count: links.count)
      }
      link = links[number - 1]
    }
    guard let link, URL(string: link)?.isWeb == true else {
      // What else could be done with it, said when known: the error is the missing link.
      var media = false
      do {
        media = try lists.media(among: [article.id])[article.id]?.isEmpty == false
      } catch {
        media = false
      }
      throw OpenError.noLink(
        id: article.id, textLinks: HTMLText.links(in: article.content ?? "").count, media: media)
    }
    for missing in Browser.missing(environment: context.environment) {
      context.warn(
        "BROWSER names '\(missing)', which cannot be found (not installed, or not on PATH); "
          + "skipped")
    }
    if let browser = Browser.find(environment: context.environment) {
      try browser.open(link)
    } else {
      context.printer.line(ArticleActionText.link(link))
    }
    if let warning = lists.shown(article.id).warning { context.warn(warning) }
    return .success
  }
}
