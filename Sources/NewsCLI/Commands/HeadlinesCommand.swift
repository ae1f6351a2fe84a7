import Foundation
import NewsCore

/// `news headlines`: top headlines from newsapi.org.
enum HeadlinesCommand {
  static let spec = CommandSpec(
    name: "headlines",
    abstract: "Show the latest top headlines (US by default) from newsapi.org.",
    discussion: """
      EXAMPLES:
        news headlines
        news headlines --category technology --page-size 5
        news headlines -q climate --json | jq -r '.articles[].title'
        news headlines --sources bbc-news,reuters

      Needs NEWSAPI_KEY (or NEWSAPI_KEY_FILE); see .env.example.
      """,
    options: [
      .value("country", "<code>", help: "Two-letter country code (default: us)."),
      .value(
        "category", "<name>",
        help: "business, entertainment, general, health, science, sports or technology."),
      .value("query", short: "q", "<words>", help: "Only headlines matching these words."),
      .value(
        "sources", "<ids>",
        help: "Comma-separated newsapi.org source ids (not with --country or --category)."),
      .value("page-size", "<n>", help: "Articles per page, 1 to 100 (default: 20)."),
      .value("page", "<n>", help: "Page number, 1 or more (default: 1)."),
      .value("limit", "<n>", help: "Show at most n articles."),
      .flag("json", help: "Print one JSON document instead of text."),
    ])

  static let entry = CommandEntry(spec: spec, run: run)

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let query = TopHeadlinesQuery(
      country: arguments.value("country"), category: arguments.value("category"),
      query: arguments.value("query"), sources: arguments.list("sources"),
      pageSize: try arguments.int("page-size", in: 1...100) ?? 20,
      page: try arguments.int("page", in: 1...Int.max) ?? 1)
    let limit = try arguments.int("limit", in: 1...Int.max)
    try query.validate()
    let configuration = try context.configuration()
    let client = NewsAPIClient(
      baseURL: configuration.newsAPIURL, apiKey: try configuration.requireNewsAPIKey(),
      transport: context.transport(configuration), now: context.now)
    var page = try await client.topHeadlines(query)
    if let limit { page.articles = Array(page.articles.prefix(limit)) }
    if arguments.has("json") {
      context.console.out(ArticleJSON.list(page).serialized(pretty: true) + "\n")
    } else {
      let renderer = ArticleListRenderer(
        style: context.style(configuration), width: context.console.width, now: context.now())
      let heading = "Top headlines" + (query.summary.isEmpty ? "" : " · " + query.summary)
      context.console.out(renderer.render(page, heading: heading))
    }
    return .success
  }
}
