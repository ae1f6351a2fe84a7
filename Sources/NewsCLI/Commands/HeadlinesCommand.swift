import Foundation
import NewsCore

/// `news headlines`: top headlines from newsapi.org, kept in the store for offline reading.
enum HeadlinesCommand {
  /// The spec, with `--from`'s choices taken from `providers`.
  static func spec(_ providers: ProviderRegistry) -> CommandSpec {
    CommandSpec(
      name: "headlines",
      abstract: "Show the latest top headlines (newsapi.org by default, or articles or bbc).",
      discussion: """
        EXAMPLES:
          news headlines
          news headlines --category technology --page-size 5
          news headlines -q climate --json | jq -r '.articles[].title'
          news headlines --sources bbc-news,reuters
          news headlines --offline
          news headlines --from articles
          news headlines --from bbc --json

        --from newsapi needs NEWSAPI_KEY (or NEWSAPI_KEY_FILE); see .env.example. The filters
        (--country, --category, --query, --sources, --page-size, --page) are newsapi.org's only.
        Every list is stored, encrypted:
        when newsapi.org cannot be reached, the stored list for the same query is shown instead,
        with a warning, and --offline reads only the store.
        """,
      options: [Options.provider(providers).spec] + Options.filters.map(\.spec)
        + [Options.limit.spec, Options.unread.spec] + Options.freshness + Options.output)
  }

  /// The command, for `providers`.
  static func entry(_ providers: ProviderRegistry) -> CommandEntry {
    CommandEntry(
      spec: spec(providers), usesNetwork: { !$0[Options.offline] }, validate: validate, run: run)
  }

  /// Filters only the chosen provider takes; `--offline` with `--refresh`; the output options.
  static func validate(_ arguments: ParsedArguments, context: Context) throws {
    let provider = self.provider(arguments, context: context)
    for (option, filter) in Options.filters
    where arguments.contains(option) && !provider.filters.contains(filter) {
      let takers = context.providers.providers.filter { $0.filters.contains(filter) }.map(\.name)
      throw UsageError(
        command: "headlines",
        message: "--\(option.name) only applies to --from \(takers.joined(separator: " or "))")
    }
    try UsageError.checkFreshness(arguments, command: "headlines")
    _ = try OutputFormat(arguments)
  }

  private static func provider(_ arguments: ParsedArguments, context: Context) -> any Provider {
    arguments[Options.provider(context.providers)].flatMap(context.providers.provider(named:))
      ?? context.providers.defaultProvider
  }

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let provider = self.provider(arguments, context: context)
    let format = try OutputFormat(arguments)
    let configuration = try context.configuration()
    let query = TopHeadlinesQuery(
      country: arguments[Options.country], category: arguments[Options.category],
      query: arguments[Options.query], sources: arguments[Options.sources] ?? [],
      pageSize: arguments[Options.pageSize] ?? 20, page: arguments[Options.page] ?? 1,
      defaults: configuration.queryDefaults)
    try query.validate()
    let result = try await context.services().lists().headlines(
      from: provider, query: query, offline: arguments[Options.offline],
      limit: arguments[Options.limit], unreadOnly: arguments[Options.unread])
    return try ListOutput(context: context, configuration: configuration, format: format)
      .show(result, heading: provider.heading(for: query))
  }
}
