import Foundation
import NewsCore

/// `news search <words>`: the stored articles that contain every word, newest first.
enum SearchCommand {
  static let spec = CommandSpec(
    name: "search",
    abstract: "Search the stored articles (offline): titles, descriptions and content.",
    discussion: """
      Every word must appear (case does not matter). Results are newest first and become the last
      list, so 'news show 2' opens the second.

      EXAMPLES:
        news search climate
        news search "supreme court" --json
      """,
    options: [
      .value("limit", "<n>", help: "Show at most n articles."),
      .flag("json", help: "Print one JSON document instead of text."),
    ],
    arguments: [ArgumentSpec(name: "words", help: "What to look for.", repeating: true)])

  static let entry = CommandEntry(spec: spec, run: run)

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let words = arguments.positionals.joined(separator: " ")
      .split(whereSeparator: \.isWhitespace).map(String.init)
    guard !words.isEmpty else {
      throw UsageError(command: spec.name, message: "missing <words>")
    }
    let configuration = try context.configuration()
    let store = try context.articleStore(configuration)
    let results = ArticleSearch.matching(words, in: try store.allArticles())
    let output = ListOutput(
      context: context, configuration: configuration, json: arguments.has("json"),
      limit: try arguments.int("limit", in: 1...Int.max))
    return try output.show(
      results, provider: "search", heading: "Search · \"\(words.joined(separator: " "))\"",
      store: store)
  }
}
