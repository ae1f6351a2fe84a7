import Foundation
import NewsCore

/// Shows a ``ListResult`` (text, JSON or JSON Lines) with its warnings. It writes nothing to the
/// store: ``ListService`` has kept the list already, or says why it could not (then the command
/// fails after the list is shown).
struct ListOutput {
  var context: Context
  var configuration: Configuration
  var format: OutputFormat
  /// Words after "N of M" in the header (`found` for searches).
  var countSuffix = ""

  func show(_ result: ListResult, heading: String) throws -> ExitCode {
    for warning in result.warnings { context.warn(warning) }
    print(result, heading: heading)
    context.displayed()
    if let notKept = result.notKept { throw ListNotKeptError(underlying: notKept) }
    return .success
  }

  private func print(_ result: ListResult, heading: String) {
    let list = result.list
    switch format {
    case .text:
      var title = heading
      if let label = result.freshness.label(fetchedAt: list.fetchedAt, now: context.timing.now()) {
        title += " (\(label))"
      }
      var renderer = ArticleListRenderer(
        style: context.style(configuration), width: context.width(configuration),
        now: context.timing.now(), layout: context.providers.layout(of:))
      renderer.read = result.read
      // The headlines' placeholder (as the original design asked); a search or bookmarks list
      // prints nothing where there is no image, and says why a result matched.
      let gathered = [SourceName.search, SourceName.bookmarks].contains(list.provider)
      renderer.imagePlaceholder = !gathered
      renderer.matchedInFullText = result.matchedInFullText ?? []
      renderer.enclosures = result.enclosures
      context.printer.text(
        renderer.render(
          list, heading: title, countSuffix: (result.isPartial ? "+" : "") + countSuffix,
          unread: result.unreadCount))
    case .jsonLines:
      for article in list.articles {
        context.printer.text(
          ArticleJSON.article(
            article, read: result.read.contains(article.id),
            extra: [("enclosures", EnclosureText.json(result.enclosures[article.id] ?? []))]
              + ArticleJSON.matchedIn(article.id, fullText: result.matchedInFullText)
          ).serialized() + "\n")
      }
    case .json:
      var error: String?
      if case .stale(let reason) = result.freshness { error = reason }
      context.printer.text(
        ArticleJSON.list(
          list, read: result.read, stale: result.freshness != .fresh, error: error,
          matchedInFullText: result.matchedInFullText, enclosures: result.enclosures
        ).serialized(pretty: true) + "\n")
    }
  }
}
