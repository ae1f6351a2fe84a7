import FeedParsing
import Foundation
import NewsCore

/// `news show <id>`: one article in full, with its likes and comments.
enum ShowCommand {
  static let spec = CommandSpec(
    name: "show",
    abstract: "Show one article in full, with its likes and comments.",
    discussion: """
      <id> is a full article id, a number from the last list (news show 3), a unique prefix of an
      id, or the article's URL. A shown article is marked read.

      --full fetches the article's page and shows the story extracted from it (title, byline,
      the text with its paragraphs, headings, lists, quotes and tables, links numbered), kept
      encrypted beside the article: shown again, or --offline, without a request, and found by
      news search. Articles of a source with "fullText": true show it by default. A page with
      no text of its own (only links, an image, an empty shell) says so (exit 65) and shows what
      the feed had; a login wall's visible lead is its article.

      EXAMPLES:
        news show 3
        news show www.cnn.com-2020-07-20
        news show https://www.cnn.com/2020/07/20/us/index.html --json
        news show 3 --full
      """,
    options: Options.freshness + [Options.full.spec, Options.json.spec],
    arguments: [ArticleArguments.one])

  static let entry = CommandEntry(
    spec: spec, usesNetwork: { !$0[Options.offline] },
    validate: { arguments, _ in try UsageError.checkFreshness(arguments, command: spec.name) },
    run: run)

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let configuration = try context.configuration()
    let services = try context.services()
    let lists = try services.lists()
    let article = try lists.article(try arguments.argument("id"))

    // Likes and comments are keyed by the ARTICLEID of a URL: articles without one have none,
    // and only the providers NEWS_COUNTS names are asked (newsapi.org's by default).
    let showCounts =
      article.url != nil && !arguments[Options.offline]
      && configuration.counts.applies(to: article.provider)
    var likes: Int?
    var comments: Int?
    if showCounts {
      let counts = await services.info().counts(
        articleID: article.id, deadline: services.countsDeadline())
      for result in [counts.likes, counts.comments] {
        if case .failure(let error) = result { context.warn(error.sentence) }
      }
      likes = counts.likes.success
      comments = counts.comments.success
    }

    // The full text: asked for, or the source's setting (then a failure is only a warning).
    var shown = article
    var fullText: FullText?
    var failure: (any NewsError)?
    if arguments[Options.full] || services.showsFullText(source: article.provider) {
      do {
        let text = try await services.fullText().fullText(
          of: article, offline: arguments[Options.offline], refresh: arguments[Options.refresh])
        fullText = text
        shown = article.showing(text)
      } catch let error as any NewsError {
        // Asked for, its failure is the command's one error line (said last, after what the
        // feed had); a source's setting makes it a warning.
        if arguments[Options.full] { failure = error } else { context.warn(error.sentence) }
      }
    }

    let (read, warning) = lists.shown(article.id)
    if let warning { context.warn(warning) }
    var enclosures: [Enclosure] = []
    do {
      enclosures = try lists.enclosures(of: article.id)
    } catch let error as any NewsError {
      context.warn("enclosures unavailable: " + error.sentence)
    }

    if arguments[Options.json] {
      var extra: [(String, JSONValue)] = [
        ("likes", .int(likes)), ("comments", .int(comments)),
        ("enclosures", EnclosureText.json(enclosures)),
      ]
      if let fullText { extra.append(("fullText", ArticleJSON.fullText(fullText))) }
      // The feed's summary stays in JSON beside the full text.
      var document = shown
      document.description = article.description
      let object = ArticleJSON.document(ArticleJSON.article(document, read: read, extra: extra))
      context.printer.json(object)
    } else {
      let renderer = ArticleRenderer(
        style: context.style(configuration), width: context.width(configuration),
        unicode: context.console.unicode, timeZone: context.timeZone,
        layout: context.providers.layout(of: article.provider))
      context.printer.text(
        renderer.render(
          shown, likes: likes, comments: comments, showCounts: showCounts, fullText: fullText,
          enclosures: enclosures))
    }
    context.displayed()
    if let failure { context.fail(failure.sentence) }
    return failure?.exitCode ?? .success
  }
}
