import FeedParsing
import Foundation
import NewsCore

/// `news sources`: every feed source, built-in and declared, with its URL, format, time to live
/// and when it was last fetched. Reads the cache only: no request. Its actions (`add`, `remove`,
/// `set`, `import`, `export`) are subcommands, in ``SourcesActions``.
enum SourcesCommand {
  static let spec = CommandSpec(
    name: "sources",
    abstract: "List, add, remove, set, import and export the feed's sources.",
    discussion: """
      Without a subcommand: the providers (newsapi, articles, bbc), the built-in sources A, B
      and C and those of config.json (a source with only a URL is a web feed: RSS, Atom or JSON
      Feed), with format, time to live and last fetch. Nothing is fetched: the last fetch is
      read from the cache. --failing lists the sources failing run after run, since when and
      why. config.json is edited in place by the subcommands: the rest of the file stays as
      written.

      EXAMPLES:
        news sources
        news sources add https://news.ycombinator.com/rss --name hn
        news sources add https://example.com/blog --ttl 3600
        news sources add --search "climate policy" --name climate
        news sources set hn --max-items 30 --tags tech,daily
        news sources --tag tech
        news sources import ~/.newsboat/urls
        news sources export > feeds.opml
        news sources add https://example.com/feed.xml --account home
        news sources --json | jq -r '.sources[].url'
      """,
    options: [Options.json.spec, Options.tag.spec, Options.failing.spec])

  static let entry = CommandEntry(
    spec: spec, subcommands: SourcesActions.entries, validate: validate, run: run)

  /// An unknown tag is a usage error.
  static func validate(_ arguments: ParsedArguments, context: Context) throws {
    let sources = try context.services().feedSources()
    try UsageError.checkTag(arguments[Options.tag], among: sources, command: spec.name)
  }

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let configuration = try context.configuration()
    let services = try context.services()
    let feed = try services.feed()
    if let warning = services.accountSourcesWarning() { context.warn(warning.sentence) }
    if arguments[Options.failing] {
      return failing(feed.failures(), json: arguments[Options.json], context: context)
    }
    let rows = services.feedSources().filter { source in
      arguments[Options.tag].map { source.tags.contains($0) } ?? true
    }.map { source in (source, feed.lastFetch(source)) }
    // Each source's health: failing since when, how many runs in a row, why (#47.5).
    let failures = feed.failures()
    // The providers first, like sources (not filed under tags).
    let providers = arguments[Options.tag] == nil ? services.providerStatuses() : []
    if arguments[Options.json] {
      let document = SourcesJSON.document(providers: providers, rows: rows, failures: failures)
      context.console.out(document.serialized(pretty: true) + "\n")
      return .success
    }
    let style = context.style(configuration)
    let now = context.timing.now()
    var text = style.bold("Sources") + style.dim(" · \(providers.count + rows.count)") + "\n\n"
    let width = ((rows.map(\.0.name.count) + providers.map(\.name.count)).max() ?? 0) + 2
    for provider in providers {
      var details = ["provider"]
      if let missing = provider.missing { details.append(missing) }
      if !provider.enabled { details.append("disabled") }
      details.append(
        provider.error.map { "store unreadable: " + TerminalSanitizer.clean($0) }
          ?? provider.fetchedAt.map { "fetched " + RelativeTime.describe($0, now: now) }
          ?? "never fetched")
      text +=
        provider.name.padding(to: width) + TerminalSanitizer.clean(provider.url.absoluteString)
        + "\n" + String(repeating: " ", count: width)
        + style.dim(details.joined(separator: " · ")) + "\n"
    }
    for (source, last) in rows {
      let fetched: String
      if let error = last.error {
        fetched = "cache damaged: " + error
      } else if let date = last.fetchedAt {
        fetched =
          (source.account == nil ? "fetched " : "synced ") + RelativeTime.describe(date, now: now)
      } else {
        fetched = "never fetched"
      }
      var details = [
        source.account.map { "account \($0)" }
          ?? source.adapter.format + " · ttl \(Int(source.ttl.components.seconds)) s"
      ]
      if let maxItems = source.maxItems { details.append("at most \(maxItems) items") }
      if !source.tags.isEmpty {
        details.append("tags " + TerminalSanitizer.clean(source.tags.joined(separator: ", ")))
      }
      if !source.enabled { details.append("disabled") }
      if source.fullText { details.append("full text") }
      if let failure = failures[source.name] {
        let since = RelativeTime.describe(Date(timeIntervalSince1970: failure.since), now: now)
        details.append(
          "failing since \(since) (\(failure.failures) run\(failure.failures == 1 ? "" : "s")): "
            + TerminalSanitizer.clean(failure.error))
      }
      let address = source.search.map { "search: " + $0 } ?? source.url.absoluteString
      text +=
        source.name.padding(to: width) + TerminalSanitizer.clean(address) + "\n"
        + String(repeating: " ", count: width)
        + style.dim((details + [fetched]).joined(separator: " · ")) + "\n"
    }
    context.console.out(text)
    return .success
  }

  /// `news sources --failing`: each source failing run after run, since when, and why.
  private static func failing(
    _ failures: [String: FeedFailures.Failure], json: Bool, context: Context
  ) -> ExitCode {
    let sorted = failures.sorted { ($0.value.since, $0.key) < ($1.value.since, $1.key) }
    if json {
      let document = SourcesJSON.failing(sorted)
      context.console.out(document.serialized(pretty: true) + "\n")
      return .success
    }
    guard !sorted.isEmpty else {
      context.console.out("No source is failing.\n")
      return .success
    }
    let now = context.timing.now()
    for (name, failure) in sorted {
      let since = RelativeTime.describe(Date(timeIntervalSince1970: failure.since), now: now)
      context.console.out(
        "\(name)  failing since \(since): \(TerminalSanitizer.clean(failure.error))\n")
    }
    context.console.out(
      "(news sources set <name> --disable stops asking one; a run that answers clears it)\n")
    return .success
  }
}
