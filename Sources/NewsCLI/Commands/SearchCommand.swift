import Foundation
import NewsCore

/// `news search <words>`: the stored articles that contain every word, newest first; with
/// `--online`, newsapi.org's `/v2/everything`.
enum SearchCommand {
  static let onlineOptions = [
    "language", "sort-by", "from", "to", "domains", "exclude-domains", "search-in", "page-size",
    "page",
  ]

  static let spec = CommandSpec(
    name: "search",
    abstract: "Search the stored articles offline, or all of newsapi.org with --online.",
    discussion: """
      Offline (the default), every word must appear in a stored article's title, description or
      content (case and accents do not matter); results are newest first. With --online, the
      words go to newsapi.org's /v2/everything (NEWSAPI_KEY needed) with the options below, and
      the results are stored so they can be read offline and bookmarked. Either way the results
      become the last list, so 'news show 2' opens the second.

      EXAMPLES:
        news search climate
        news search "supreme court" --json
        news search bitcoin --online --language fr --sort-by publishedAt
        news search election --online --from 2024-05-01 --to 2024-05-31 --domains bbc.co.uk
      """,
    options: [
      .flag("online", help: "Search newsapi.org (/v2/everything) instead of the store."),
      .value("language", "<code>", help: "Two-letter language code, e.g. fr (--online)."),
      .value(
        "sort-by", "<order>", help: "relevancy, popularity or publishedAt (--online).",
        choices: EverythingQuery.sortOrders),
      .value("from", "<date>", help: "Oldest article, ISO 8601 date or date-time (--online)."),
      .value("to", "<date>", help: "Newest article, ISO 8601 date or date-time (--online)."),
      .value("domains", "<list>", help: "Only these domains, comma-separated (--online)."),
      .value("exclude-domains", "<list>", help: "Not these domains, comma-separated (--online)."),
      .value(
        "search-in", "<fields>", help: "Any of title,description,content (--online)."),
      .value("page-size", "<n>", help: "Results per page, 1 to 100 (default: 20; --online)."),
      .value("page", "<n>", help: "Page number, 1 or more (default: 1; --online)."),
      .value("limit", "<n>", help: "Show at most n articles."),
    ] + OutputFormat.options,
    arguments: [ArgumentSpec(name: "words", help: "What to look for.", repeating: true)])

  static let entry = CommandEntry(spec: spec, usesNetwork: { $0.has("online") }, run: run)

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let words = arguments.positionals.joined(separator: " ")
      .split(whereSeparator: \.isWhitespace).map(String.init)
    guard !words.isEmpty else {
      throw UsageError(command: spec.name, message: "missing <words>")
    }
    let limit = try arguments.int("limit", in: 1...Int.max)
    let format = try OutputFormat(arguments)
    if arguments.has("online") {
      return try await online(
        words, arguments: arguments, limit: limit, format: format, context: context)
    }
    if let option = onlineOptions.first(where: { arguments.value($0) != nil }) {
      throw UsageError(
        command: spec.name, message: "--\(option) only applies to --online searches",
        hint: "add --online")
    }
    let configuration = try context.configuration()
    let result = try context.services(configuration).lists().search(words, limit: limit)
    return try ListOutput(context: context, configuration: configuration, format: format)
      .show(result, heading: "Search · \"\(words.joined(separator: " "))\"")
  }

  private static func online(
    _ words: [String], arguments: ParsedArguments, limit: Int?, format: OutputFormat,
    context: Context
  ) async throws -> ExitCode {
    var query = EverythingQuery(
      words: words.joined(separator: " "), language: arguments.value("language"),
      sortBy: arguments.value("sort-by"), from: arguments.value("from"),
      to: arguments.value("to"), domains: arguments.list("domains"),
      excludeDomains: arguments.list("exclude-domains"), searchIn: arguments.list("search-in"),
      pageSize: try arguments.int("page-size", in: 1...100) ?? 20,
      page: try arguments.int("page", in: 1...Int.max) ?? 1)
    try query.validate()
    let configuration = try context.configuration()
    if query.language == nil { query.language = configuration.queryDefaults.language }
    let result = try await context.services(configuration).lists().everything(query, limit: limit)
    var output = ListOutput(context: context, configuration: configuration, format: format)
    output.countSuffix = " found"
    return try output.show(result, heading: "Search · \"\(query.words)\"")
  }
}
