import Foundation
import NewsCore

/// `news sources`: every feed source, built-in and declared, with its URL, format, time to live
/// and when it was last fetched. Reads the cache only: no request.
enum SourcesCommand {
  static let spec = CommandSpec(
    name: "sources",
    abstract: "List the feed's sources: name, URL, format, time to live, last fetch.",
    discussion: """
      The built-in sources A, B and C and those of config.json (a source with only a URL is a web
      feed: RSS, Atom or JSON Feed). Nothing is fetched: the last fetch is read from the cache.

      EXAMPLES:
        news sources
        news sources --json | jq -r '.sources[].url'
      """,
    options: [Options.json.spec])

  static let entry = CommandEntry(spec: spec, run: run)

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let configuration = try context.configuration()
    let services = context.services(configuration)
    let feed = try services.feed()
    let rows = services.feedSources().map { source in (source, feed.lastFetch(source)) }
    if arguments[Options.json] {
      let document = JSONValue.object([
        ("schemaVersion", .int(ArticleJSON.schemaVersion)),
        (
          "sources",
          .array(
            rows.map { source, last in
              let (fetchedAt, error) = (last.fetchedAt, last.error)
              return .object([
                ("name", .string(source.name)), ("url", .string(source.url.absoluteString)),
                ("format", .string(source.adapter.format)),
                ("ttl", .int(Int(source.ttl.components.seconds))),
                (
                  "status",
                  .string(error != nil ? "damaged" : fetchedAt == nil ? "never" : "fetched")
                ),
                ("fetchedAt", .date(fetchedAt)), ("error", .string(error)),
              ])
            })
        ),
      ])
      context.console.out(document.serialized(pretty: true) + "\n")
      return .success
    }
    let style = context.style(configuration)
    let now = context.timing.now()
    var text = style.bold("Sources") + style.dim(" · \(rows.count)") + "\n\n"
    let width = (rows.map(\.0.name.count).max() ?? 0) + 2
    for (source, last) in rows {
      let fetched: String
      if let error = last.error {
        fetched = "cache damaged: " + error
      } else if let date = last.fetchedAt {
        fetched = "fetched " + RelativeTime.describe(date, now: now)
      } else {
        fetched = "never fetched"
      }
      text +=
        source.name.padding(to: width) + TerminalSanitizer.clean(source.url.absoluteString) + "\n"
        + String(repeating: " ", count: width)
        + style.dim(
          "\(source.adapter.format) · ttl \(Int(source.ttl.components.seconds)) s · \(fetched)")
        + "\n"
    }
    context.console.out(text)
    return .success
  }
}
