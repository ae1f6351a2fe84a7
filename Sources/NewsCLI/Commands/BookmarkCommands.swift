import FeedParsing
import Foundation
import NewsCore

/// `news bookmark`, `news unbookmark` and `news bookmarks`.
enum BookmarkCommands {
  static let add = CommandEntry(
    spec: CommandSpec(
      name: "bookmark",
      abstract: "Keep articles for good, whatever the retention policy says.",
      discussion: """
        With --where, every stored article the query matches (docs/queries.md); --dry-run says
        how many would change.

        EXAMPLES:
          news bookmark 3 5
          news bookmark https://www.cnn.com/2020/07/20/us/index.html
          news bookmark --where 'author:"Ann Lee" rust'
        """,
      options: [Options.whereQuery.spec, Options.dryRun.spec],
      arguments: [ArticleArguments.several(required: false)]),
    validate: BulkSelection.validate,
    run: { arguments, context in
      if BulkSelection.asked(arguments) {
        return try BulkSelection.run(.bookmark, arguments, context: context)
      }
      let articles = try resolve(arguments, context: context)
      try context.services().lists().bookmark(articles).warnings.forEach(context.warn)
      ArticleArguments.confirm("bookmarked", articles, context: context)
      return .success
    })

  static let remove = CommandEntry(
    spec: CommandSpec(
      name: "unbookmark",
      abstract: "Remove bookmarks.",
      discussion: """
        EXAMPLES:
          news bookmarks
          news unbookmark 2
        """,
      arguments: [ArticleArguments.several()]),
    run: { arguments, context in
      let articles = try resolve(arguments, context: context)
      let result = try context.services().lists().unbookmark(articles.map(\.id))
      result.warnings.forEach(context.warn)
      let missing = result.missing
      ArticleArguments.confirm(
        "removed", articles.filter { !missing.contains($0.id) }, context: context)
      guard missing.isEmpty else {
        throw UsageError(
          command: "unbookmark",
          message:
            "not bookmarked: \(missing.map { TerminalSanitizer.clean($0) }.joined(separator: ", "))"
        )
      }
      return .success
    })

  static let list = CommandEntry(
    spec: CommandSpec(
      name: "bookmarks",
      abstract: "List bookmarked articles (works offline).",
      discussion: """
        EXAMPLES:
          news bookmarks
          news bookmarks --json | jq -r '.articles[].url'
        """,
      options: [Options.limit.spec, Options.unread.spec] + Options.output),
    run: { arguments, context in
      let format = try OutputFormat(arguments)
      let limit = arguments[Options.limit]
      let configuration = try context.configuration()
      let result = try context.services().lists().bookmarks(
        limit: limit, unreadOnly: arguments[Options.unread])
      return try ListOutput(context: context, configuration: configuration, format: format)
        .show(result, heading: "Bookmarks")
    })

  /// The articles the positional arguments name.
  private static func resolve(_ arguments: ParsedArguments, context: Context) throws -> [Article] {
    let lists = try context.services().lists()
    return try lists.articles(arguments.positionals)
  }
}
