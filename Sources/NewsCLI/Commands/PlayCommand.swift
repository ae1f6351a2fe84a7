import FeedParsing
import Foundation
import NewsCore

/// `news play <id|n>`: an item's audio or video handed to a player.
enum PlayCommand {
  static let spec = CommandSpec(
    name: "play",
    abstract: "Play an item's audio or video (a podcast episode) with NEWS_PLAYER or mpv.",
    discussion: """
      Hands the item's first audio or video enclosure (or the one numbered, as news show lists
      its files) to NEWS_PLAYER (a command; %s stands for the file or URL), else mpv when it
      is installed, else the program that opens links (as news open). A file news download
      fetched is played from disk; otherwise the player streams the URL. Without any player,
      the file or URL is printed. The item is marked read.

      EXAMPLES:
        news play 3
        NEWS_PLAYER="vlc --play-and-exit" news play 3
      """,
    arguments: [
      ArticleArguments.one,
      ArgumentSpec(
        name: "file", help: "Which of its audio and video files (1 is the first).",
        required: false, kind: .integer(1...Int.max)),
    ])

  static let entry = CommandEntry(spec: spec, run: run)

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let lists = try context.services().lists()
    let article = try lists.article(try arguments.argument("id"))
    let media = try lists.enclosures(of: article.id).filter(\.isMedia)
    let number = arguments.optionalArgument("file") == nil ? 1 : try arguments.number("file")
    guard media.indices.contains(number - 1) else { throw OpenError.noMedia(id: article.id) }
    // The downloaded file when there is one (news download), else the URL to stream.
    let url =
      try context.services().downloads().file(of: media[number - 1].url) ?? media[number - 1].url
    let configured = try context.configuration().player
    if let missing = Browser.missingPlayer(configured, environment: context.environment) {
      context.warn(
        "NEWS_PLAYER names '\(missing)', which cannot be found (not installed, or not on PATH); "
          + "skipped")
    }
    if let player = Browser.player(configured, environment: context.environment) {
      try player.open(url)
    } else {
      context.printer.line(ArticleActionText.link(url))
    }
    if let warning = lists.shown(article.id).warning { context.warn(warning) }
    return .success
  }
}
