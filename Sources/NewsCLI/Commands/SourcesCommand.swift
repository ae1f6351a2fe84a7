import Foundation
import NewsCore

/// `news sources`: every feed source, built-in and declared, with its URL, format, time to live
/// and when it was last fetched. Reads the cache only: no request.
enum SourcesCommand {
  static let spec = CommandSpec(
    name: "sources",
    abstract: "List, add, remove, import and export the feed's sources.",
    discussion: """
      Without an action: the built-in sources A, B and C and those of config.json (a source with
      only a URL is a web feed: RSS, Atom or JSON Feed), with format, time to live and last fetch.
      Nothing is fetched: the last fetch is read from the cache.

      add <url>        fetches <url> once: a feed is subscribed to; a web page announcing one
                       (<link rel="alternate" type="application/rss+xml">) subscribes to its
                       feed. The name comes from the feed's title unless --name is given.
      remove <name>    unsubscribes (its stored articles stay until retention drops them).
      import <file>    OPML 1.0/2.0 (folders become tags) or newsboat's urls file; feeds
                       subscribed already are skipped. Nothing is fetched.
      export           prints the web feeds as OPML 2.0 (newsboat -i, other readers).

      config.json is edited in place: the rest of the file stays as written.

      EXAMPLES:
        news sources
        news sources add https://news.ycombinator.com/rss --name hn
        news sources add https://example.com/blog --ttl 3600
        news sources import ~/.newsboat/urls
        news sources export > feeds.opml
        news sources --json | jq -r '.sources[].url'
      """,
    options: [Options.json.spec, Options.sourceName.spec, Options.ttl.spec],
    arguments: [
      ArgumentSpec(
        name: "action", help: "add, remove, import or export.", required: false,
        choices: ["add", "remove", "import", "export"]),
      ArgumentSpec(name: "value", help: "The URL, name or file of the action.", required: false),
    ])

  static let entry = CommandEntry(
    spec: spec, usesNetwork: { $0.positionals.first == "add" },
    validate: { arguments, _ in
      guard arguments.positionals.first != "add" else { return }
      for option in [Options.sourceName.spec, Options.ttl.spec] where arguments.contains(option) {
        throw UsageError(command: spec.name, message: "--\(option.name) only applies to 'add'")
      }
    }, run: run)

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let configuration = try context.configuration()
    let services = context.services(configuration)
    let positionals = arguments.positionals
    if let action = positionals.first {
      return try await SourcesActions.run(
        action, value: positionals.count > 1 ? positionals[1] : nil, arguments: arguments,
        services: services, context: context)
    }
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
                ("tags", .array(source.tags.map { .string($0) })),
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
