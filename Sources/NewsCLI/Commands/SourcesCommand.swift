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
      Feed), with format, last fetch, and when it is asked next and why (how often it posts,
      its ttl, what the feed or its server said, a wait). Nothing is fetched: the last fetch is
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
    guard let tag = arguments[Options.tag] else { return }
    try UsageError.checkTag(tag, among: context.services().feedSources(), command: spec.name)
  }

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let configuration = try context.configuration()
    let services = try context.services()
    let feed = try services.feed()
    if let warning = services.accountSourcesWarning() { context.warn(warning.sentence) }
    if arguments[Options.failing] {
      // Only the sources still asked: one removed or disabled since it failed is not failing.
      let asked = Set(services.feedSources().filter(\.enabled).map(\.name))
      return failing(
        feed.failures().filter { asked.contains($0.key) }, json: arguments[Options.json],
        context: context)
    }
    var sources = services.feedSources()
    if let tag = arguments[Options.tag] { sources = sources.filter { $0.tags.contains(tag) } }
    // A source without a title of its own shows its feed's, as its last answer gave it.
    let rows = zip(sources, feed.lastFetches(sources)).map { ($0.describedBy($1), $1) }
    // Each source's health: failing since when, how many runs in a row, why (#47.5).
    var failures: [String: FeedFailures.Failure] = [:]
    for (source, last) in rows {
      if let failure = last.failure { failures[source.name] = failure }
    }
    // The providers first, like sources (not filed under tags).
    let providers = arguments[Options.tag] == nil ? services.providerStatuses() : []
    if arguments[Options.json] {
      SourcesJSON.write(
        providers: providers, rows: rows, failures: failures, to: context.printer.write)
    } else {
      context.printer.text(
        SourcesText.table(
          providers: providers, rows: rows, failures: failures,
          style: context.style(configuration), now: context.timing.now()))
    }
    return .success
  }

  /// `news sources --failing`: each source failing run after run, since when, and why.
  private static func failing(
    _ failures: [String: FeedFailures.Failure], json: Bool, context: Context
  ) -> ExitCode {
    let sorted = failures.sorted { ($0.value.since, $0.key) < ($1.value.since, $1.key) }
    if json {
      context.printer.json(SourcesJSON.failing(sorted))
    } else {
      context.printer.lines(SourcesText.failing(sorted, now: context.timing.now()))
    }
    return .success
  }
}
