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
        "from", "<provider>", help: "newsapi (default), articles or bbc.",
        choices: ["newsapi", "articles", "bbc"]),
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

  static let entry = CommandEntry(spec: spec, usesNetwork: { !$0.has("offline") }, run: run)

  static let providers = ["newsapi", "articles", "bbc"]
  static let newsAPIOptions = ["country", "category", "query", "sources", "page-size", "page"]

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let provider = arguments.value("from") ?? "newsapi"
    guard providers.contains(provider) else {
      throw UsageError(
        command: spec.name,
        message: "--from must be one of \(providers.joined(separator: ", ")); got '\(provider)'",
        hint: Suggestion.closest(to: provider, in: providers).map { "did you mean '\($0)'?" })
    }
    if provider != "newsapi",
      let option = newsAPIOptions.first(where: { arguments.value($0) != nil })
    {
      throw UsageError(
        command: spec.name, message: "--\(option) only applies to --from newsapi")
    }
    let pageSize = try arguments.int("page-size", in: 1...100) ?? 20
    let pageNumber = try arguments.int("page", in: 1...Int.max) ?? 1
    let limit = try arguments.int("limit", in: 1...Int.max)
    if arguments.has("offline"), arguments.has("refresh") {
      throw UsageError(command: spec.name, message: "--offline and --refresh contradict each other")
    }
    let configuration = try context.configuration()
    let query = TopHeadlinesQuery(
      country: arguments.value("country"), category: arguments.value("category"),
      query: arguments.value("query"), sources: arguments.list("sources"),
      pageSize: pageSize, page: pageNumber, defaults: configuration.queryDefaults)
    try query.validate()
    let key: String
    let heading: String
    switch provider {
    case "articles":
      (key, heading) = ("articles", "Articles")
    case "bbc":
      (key, heading) = ("bbc", "BBC headlines")
    default:
      key = query.storageKey
      heading = "Top headlines" + (query.summary.isEmpty ? "" : " · " + query.summary)
    }
    let format = try OutputFormat(arguments)
    let store = try context.articleStore(configuration)
    let output = ListOutput(
      context: context, configuration: configuration, store: store, format: format, limit: limit)

    if arguments.has("offline") {
      guard let stored = try store.listing(for: key) else {
        throw OfflineError.nothingStored(command: "news headlines")
      }
      return try output.show(stored.listing, stored.articles, heading: heading, stale: .offline)
    }

    let page: HeadlinesPage
    do {
      page = try await fetch(provider, query: query, configuration: configuration, context: context)
    } catch let error as any NewsError where isOutage(error) {
      guard let stored = try store.listing(for: key) else { throw error }
      return try output.show(
        stored.listing, stored.articles, heading: heading, stale: .failed(error.message))
    }
    return try output.show(page, key: key, heading: heading)
  }

  /// One page from `provider`, over the network.
  static func fetch(
    _ provider: String, query: TopHeadlinesQuery, configuration: Configuration, context: Context
  ) async throws -> HeadlinesPage {
    let transport = context.transport(configuration)
    switch provider {
    case "articles":
      return try await PageClient.articles(
        url: configuration.articlesURL, transport: transport, now: context.now
      ).fetch()
    case "bbc":
      return try await PageClient.bbc(
        url: configuration.bbcURL, transport: transport, now: context.now
      )
      .fetch()
    default:
      return try await NewsAPIClient(
        baseURL: configuration.newsAPIURL, apiKey: try configuration.requireNewsAPIKey(),
        transport: transport, now: context.now
      ).topHeadlines(query)
    }
  }

  /// Failures of the network or the server, for which stored articles may stand in.
  static func isOutage(_ error: any NewsError) -> Bool {
    switch error {
    case let error as NewsAPIError: return error.isOutage || error.exitCode == .dataError
    case is HTTPError, is ProviderError: return true
    default: return false
    }
  }
}
