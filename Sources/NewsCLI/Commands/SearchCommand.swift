import Foundation
import NewsCore

/// `news search <query>`: the stored articles the query matches (docs/queries.md: words,
/// fields, states, time, regular expressions, NOT, OR, parentheses), newest first; with
/// `--online`, newsapi.org's `/v2/everything`.
enum SearchCommand {
  static let spec = CommandSpec(
    name: "search",
    abstract: "Search the stored articles offline, or all of newsapi.org with --online.",
    discussion: """
      Offline (the default), the query is the query language of docs/queries.md: every bare word
      must appear in a stored article's title, description or content (case and accents do not
      matter), and fields (title: author: text: url: source: tag:), states (is:unread
      is:bookmarked has:enclosure has:fulltext has:download), time (age<7d date>=2026-11-01),
      /regex/, -word, NOT, OR and parentheses choose further; results are newest first. A query
      that cannot be read is exit 64, with a caret under the column. With --online, the
      words go to newsapi.org's /v2/everything (NEWSAPI_KEY needed) with the options below, and
      the results are stored so they can be read offline and bookmarked. Either way the results
      become the last list, so 'news show 2' opens the second.

      EXAMPLES:
        news search climate
        news search 'is:unread tag:tech age<7d'
        news search 'author:"Ann Lee" (rust OR swift) -sponsored'
        news search "supreme court" --json
        news search bitcoin --online --language fr --sort-by publishedAt
        news search election --online --from 2024-05-01 --to 2024-05-31 --domains bbc.co.uk
      """,
    options: [Options.online.spec] + Options.onlineSearch + [
      Options.limit.spec, Options.unread.spec,
    ]
      + Options.output,
    arguments: [
      ArgumentSpec(name: "query", help: "What to look for (docs/queries.md).", repeating: true)
    ])

  static let entry = CommandEntry(
    spec: spec, usesNetwork: { $0[Options.online] }, validate: validate, run: run)

  /// Words to search for; newsapi.org's options only with `--online`; the output options.
  static func validate(_ arguments: ParsedArguments, context: Context) throws {
    guard !words(arguments).isEmpty else {
      throw UsageError(command: spec.name, message: "missing <query>")
    }
    // The query itself is read once, by `run`, before it reads or asks anything.
    _ = try OutputFormat(arguments)
    if !arguments[Options.online],
      let option = Options.onlineSearch.first(where: arguments.contains)
    {
      throw UsageError(
        command: spec.name, message: "--\(option.name) only applies to --online searches",
        hint: "add --online")
    }
  }

  private static func words(_ arguments: ParsedArguments) -> [String] {
    arguments.positionals.joined(separator: " ").split(whereSeparator: \.isWhitespace)
      .map(String.init)
  }

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let words = self.words(arguments)
    let limit = arguments[Options.limit]
    let format = try OutputFormat(arguments)
    if arguments[Options.online] {
      return try await online(
        words, arguments: arguments, limit: limit, format: format, context: context)
    }
    let configuration = try context.configuration()
    // On a terminal a search shows the newest 100 unless told otherwise; scripts get every match.
    let shown =
      limit ?? (format == .text && context.console.stdoutIsTerminal ? Self.onTerminal : nil)
    let text = arguments.positionals.joined(separator: " ")
    let query = try ArticleQuery(text, timeZone: context.timeZone)
    let result = try context.services().lists().search(
      query, limit: shown, unreadOnly: arguments[Options.unread])
    let code = try ListOutput(context: context, configuration: configuration, format: format)
      .show(result, heading: "Search · " + quoted(text))
    if limit == nil, let shown, result.isPartial || result.list.totalResults > shown {
      context.printer.line(ArticleActionText.moreMatch(shown: shown))
    }
    return code
  }

  /// How many matches a search shows on a terminal without `--limit`.
  static let onTerminal = 100

  private static func online(
    _ words: [String], arguments: ParsedArguments, limit: Int?, format: OutputFormat,
    context: Context
  ) async throws -> ExitCode {
    var query = EverythingQuery(
      words: words.joined(separator: " "), language: arguments[Options.language],
      sortBy: arguments[Options.sortBy], from: arguments[Options.fromDate],
      to: arguments[Options.toDate], domains: arguments[Options.domains] ?? [],
      excludeDomains: arguments[Options.excludeDomains] ?? [],
      searchIn: arguments[Options.searchIn] ?? [], pageSize: arguments[Options.pageSize] ?? 20,
      page: arguments[Options.page] ?? 1)
    try query.validate()
    let configuration = try context.configuration()
    if query.language == nil { query.language = configuration.queryDefaults.language }
    let result = try await context.services().lists().everything(query, limit: limit)
    var output = ListOutput(context: context, configuration: configuration, format: format)
    output.countSuffix = " found"
    return try output.show(result, heading: "Search · " + quoted(query.words))
  }

  /// `"climate"`, but `'"credit card" OR visa'` for a query holding double quotes (they are
  /// not doubled), and the query bare when it holds both kinds.
  static func quoted(_ query: String) -> String {
    if !query.contains("\"") { return "\"" + query + "\"" }
    return query.contains("'") ? query : "'" + query + "'"
  }
}
