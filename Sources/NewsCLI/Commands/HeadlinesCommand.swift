import Foundation
import NewsCore

/// `news headlines`: top headlines from newsapi.org, kept in the store for offline reading.
enum HeadlinesCommand {
  static let spec = CommandSpec(
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
    options: [
      .value(
        "from", "<provider>",
        help: ProviderRegistry.builtIn.names.enumerated().map { index, name in
          index == 0 ? name + " (default)" : name
        }.joined(separator: ", ") + ".",
        choices: ProviderRegistry.builtIn.names),
      .value("country", "<code>", help: "Two-letter country code (default: us)."),
      .value(
        "category", "<name>",
        help: "business, entertainment, general, health, science, sports or technology.",
        choices: TopHeadlinesQuery.categories),
      .value("query", short: "q", "<words>", help: "Only headlines matching these words."),
      .value(
        "sources", "<ids>",
        help: "Comma-separated newsapi.org source ids (not with --country or --category)."),
      .value("page-size", "<n>", help: "Articles per page, 1 to 100 (default: 20)."),
      .value("page", "<n>", help: "Page number, 1 or more (default: 1)."),
      .value("limit", "<n>", help: "Show at most n articles."),
      .flag("offline", help: "Read the stored list only; never use the network."),
      .flag("refresh", help: "Ignore anything stored and fetch (headlines always fetch online)."),
    ] + OutputFormat.options)

  static let entry = CommandEntry(
    spec: spec, usesNetwork: { !$0.has("offline") }, run: run)

  /// The options that are filters of the query, and which filter each is.
  static let filterOptions: [(option: String, filter: QueryFilter)] = [
    ("country", .country), ("category", .category), ("query", .query), ("sources", .sources),
    ("page-size", .pageSize), ("page", .page),
  ]

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let provider = try provider(arguments, registry: context.providers)
    for (option, filter) in filterOptions
    where arguments.value(option) != nil && !provider.filters.contains(filter) {
      let takers = context.providers.providers.filter { $0.filters.contains(filter) }.map(\.name)
      throw UsageError(
        command: spec.name,
        message: "--\(option) only applies to --from \(takers.joined(separator: " or "))")
    }
    let pageSize = try arguments.int("page-size", in: 1...100) ?? 20
    let pageNumber = try arguments.int("page", in: 1...Int.max) ?? 1
    let limit = try arguments.int("limit", in: 1...Int.max)
    if arguments.has("offline"), arguments.has("refresh") {
      throw UsageError(command: spec.name, message: "--offline and --refresh contradict each other")
    }
    let format = try OutputFormat(arguments)
    let configuration = try context.configuration()
    let query = TopHeadlinesQuery(
      country: arguments.value("country"), category: arguments.value("category"),
      query: arguments.value("query"), sources: arguments.list("sources"),
      pageSize: pageSize, page: pageNumber, defaults: configuration.queryDefaults)
    try query.validate()
    let result = try await context.services(configuration).lists().headlines(
      from: provider, query: query, offline: arguments.has("offline"), limit: limit)
    return try ListOutput(context: context, configuration: configuration, format: format)
      .show(result, heading: provider.heading(for: query))
  }

  /// The provider `--from` names, or the default one.
  static func provider(_ arguments: ParsedArguments, registry: ProviderRegistry) throws
    -> any Provider
  {
    guard let name = arguments.value("from") else { return registry.defaultProvider }
    guard let provider = registry.provider(named: name) else {
      throw UsageError(
        command: spec.name,
        message: "--from must be one of \(registry.names.joined(separator: ", ")); got '\(name)'",
        hint: Suggestion.closest(to: name, in: registry.names).map { "did you mean '\($0)'?" })
    }
    return provider
  }
}
