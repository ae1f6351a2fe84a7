import FeedParsing
import Foundation
import NewsCore

/// `news read` and `news unread`: read state by hand (`news show` and `news open` mark read too).
enum ReadCommands {
  static let read = CommandEntry(
    spec: CommandSpec(
      name: "read",
      abstract: "Mark articles read (news show and news open do it too).",
      discussion: """
        With --where, every stored article the query matches (as 'news search' lists them:
        docs/queries.md); with --older-than, every one published (else first seen) longer ago;
        both may take --source, and --dry-run says how many would change.

        EXAMPLES:
          news read 3 5
          news read --all --source hn
          news read --where 'source:hn age>2d'
          news read --older-than 7d --source lwn --dry-run
          news feed --unread
        """,
      options: [
        Options.all.spec, Options.whereQuery.spec, Options.olderThan.spec, Options.dryRun.spec,
        Options.readSource.spec,
      ],
      arguments: [ArticleArguments.several(required: false)]),
    validate: validate,
    run: { arguments, context in
      if BulkSelection.asked(arguments) {
        return try BulkSelection.run(.read, arguments, context: context)
      }
      let (_, articles) = try resolve(arguments, context: context)
      let lists = try context.services().lists()
      let result =
        try arguments[Options.readSource].map {
          try lists.markSourceRead($0, ids: articles.map(\.id))
        } ?? lists.mark(articles.map(\.id), read: true, counting: arguments[Options.all])
      result.warnings.forEach(context.warn)
      let added = result.count
      if arguments[Options.all] {
        context.printer.line(ArticleActionText.markedAll(added))
      } else {
        ArticleArguments.confirm("read", articles, context: context)
      }
      return .success
    })

  static let unread = CommandEntry(
    spec: CommandSpec(
      name: "unread",
      abstract: "Mark articles unread again.",
      discussion: """
        With --where, every stored article the query matches (docs/queries.md); with --all,
        every stored one: both may take --source (a news read --all undone), and --dry-run says
        how many would change.

        EXAMPLES:
          news unread 3
          news unread www.cnn.com-2020-07-20-us-index.html
          news unread --where 'is:bookmarked' --dry-run
          news unread --all --source hn
        """,
      options: [
        Options.all.spec, Options.whereQuery.spec, Options.dryRun.spec, Options.readSource.spec,
      ],
      arguments: [ArticleArguments.several(required: false)]),
    validate: validate,
    run: { arguments, context in
      if BulkSelection.asked(arguments) {
        return try BulkSelection.run(.unread, arguments, context: context)
      }
      if arguments[Options.all] {
        let (_, articles) = try resolve(arguments, context: context)
        let ids = articles.map(\.id)
        let result = try context.services().lists().mark(ids, read: false, counting: true)
        result.warnings.forEach(context.warn)
        context.printer.line(
          ArticleActionText.bulk(.unread, count: result.count, matching: ids.count, dryRun: false))
        return .success
      }
      let lists = try context.services().lists()
      let (articles, marksOnly) = try lists.unreadTargets(arguments.positionals)
      try lists.mark(articles.map(\.id) + marksOnly, read: false).warnings.forEach(context.warn)
      ArticleArguments.confirm("unread", articles, context: context)
      for id in marksOnly {
        context.printer.line(ArticleActionText.unreadGone(id))
      }
      return .success
    })

  /// The store and the articles the arguments name: the positional ids, or with `--all` every
  /// stored article (of `--source`).
  private static func resolve(_ arguments: ParsedArguments, context: Context)
    throws -> (ArticleStore, [Article])
  {
    let services = try context.services()
    let store = try services.articleStore()
    guard arguments[Options.all] else {
      // Through the one resolver every command uses (ids, list numbers, prefixes, URLs).
      let lists = try services.lists()
      return (store, try lists.articles(arguments.positionals))
    }
    guard let source = arguments[Options.readSource] else {
      return (store, try store.allArticles())
    }
    return (store, try store.articles(provider: source))
  }

  /// Ids or `--all`, not both; `--source` only with `--all`, and a source that exists.
  private static func validate(_ arguments: ParsedArguments, context: Context) throws {
    let command = arguments.command.name
    let all = arguments[Options.all]
    let bulk = BulkSelection.asked(arguments)
    if all, !arguments.positionals.isEmpty || bulk {
      throw UsageError(command: command, message: "give ids, --all or --where, one of them")
    }
    if bulk || arguments[Options.dryRun] { try BulkSelection.validate(arguments, context: context) }
    guard all || bulk || !arguments.positionals.isEmpty else {
      throw UsageError(command: command, message: "missing <id> (or --all, --where <query>)")
    }
    guard let source = arguments[Options.readSource] else { return }
    guard all || bulk else {
      throw UsageError(
        command: command,
        message: "--source only applies with --all"
          + (command == "read" ? ", --where or --older-than" : " or --where"))
    }
    let services = try context.services()
    let names = services.providers.providers.map(\.name) + services.feedSources().map(\.name)
    guard names.contains(source) else {
      throw UsageError.unknownSource(source, among: names, command: command)
    }
  }
}
