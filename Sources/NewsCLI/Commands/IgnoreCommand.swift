import FeedParsing
import Foundation
import NewsCore

/// `news ignore`, `news ignore list|add|remove`: the rules that hide items (a killfile), in
/// `config.json`.
enum IgnoreCommand {
  static let spec = CommandSpec(
    name: "ignore",
    abstract: "List, add and remove the rules that hide items (a killfile).",
    discussion: """
      An item a rule matches is never shown or counted by feed, headlines and browse (search
      and bookmarks show everything; news feed --show-ignored shows them, marked). A rule looks
      in one field (--in): title (the default), author, link, or text (title, description and
      content), for words (every one, any case, any accents, as news search finds them) or,
      with --regex, a regular expression (case-insensitive); --source limits it to one provider
      or feed source. With --query, a rule is a query of the language (docs/queries.md): it hides
      what 'news search' would list for it. Rules live in config.json's "ignore" list, edited in
      place, and are listed in the language. Without a subcommand: the rules, numbered.

      EXAMPLES:
        news ignore add "sponsored"
        news ignore add --query 'author:"Ann Lee" OR /giveaway|sweepstake/'
        news ignore add "crypto|nft" --regex --in text --source hn
        news ignore list --json
        news ignore remove 2
      """,
    options: [Options.json.spec])

  static let entry = CommandEntry(
    spec: spec, subcommands: [listEntry, addEntry, removeEntry], run: runList)

  static let listEntry = CommandEntry(
    spec: CommandSpec(
      name: "ignore list", abstract: "Lists the rules, numbered (the default).",
      options: [Options.json.spec]),
    run: runList)

  static let addEntry = CommandEntry(
    spec: CommandSpec(
      name: "ignore add", abstract: "Adds a rule.",
      discussion: """
        EXAMPLES:
          news ignore add "sponsored"
          news ignore add "crypto|nft" --regex --in text --source hn
          news ignore add --query 'title:giveaway OR (tag:deals -is:bookmarked)'
        """,
      options: [
        Options.ignoreField.spec, Options.ignoreSource.spec, Options.regex.spec,
        Options.ignoreQuery.spec,
      ],
      arguments: [
        ArgumentSpec(name: "pattern", help: "Words, or a regular expression.", required: false)
      ]),
    validate: { arguments, context in
      let query = arguments[Options.ignoreQuery]
      let pattern = arguments.optionalArgument("pattern")
      guard (query == nil) != (pattern == nil) else {
        throw UsageError(
          command: "ignore add", message: "give <pattern> or --query <query>, one of them")
      }
      if let query {
        if arguments[Options.regex] || arguments[Options.ignoreField] != nil {
          throw UsageError(
            command: "ignore add", message: "--query takes no --in and no --regex")
        }
        _ = try ArticleQuery(query, timeZone: context.timeZone)
      }
      // newsboat's `title =~ "sponsored"` as words would hide only titles holding `=~` and the
      // quotes: a rule that never matches. Said, with the query it means.
      if let pattern, !arguments[Options.regex], NewsboatFilter.isFilter(pattern) {
        switch Result(catching: { () throws(NewsboatFilter.Refusal) in
          try NewsboatFilter.translate(pattern)
        }) {
        case .success(let translated):
          throw UsageError(
            command: "ignore add",
            message:
              "'\(pattern)' is a newsboat filter, not words; as a query it is \(translated): "
              + "news ignore add --query '\(translated)'")
        case .failure(let refusal):
          throw UsageError(
            command: "ignore add",
            message:
              "'\(pattern)' is a newsboat filter, not words, and has no query of news's: "
              + "\(refusal.reason); write one with --query")
        }
      }
      // `title:"sponsored post"` as words looks for its quotes and colon as they are: a rule
      // that never matches. A pattern the query language reads is meant as a query.
      if let pattern, !arguments[Options.regex],
        pattern.contains(where: { $0 == "\"" || $0 == ":" }),
        case .success = Result(catching: { try ArticleQuery(pattern, timeZone: context.timeZone) })
      {
        throw UsageError(
          command: "ignore add",
          message:
            "'\(pattern)' is a query, not words (as words, its quotes and colons would have to be "
            + "in the \(arguments[Options.ignoreField] ?? "title")): "
            + "news ignore add --query '\(pattern)'")
      }
    },
    run: { arguments, context in
      let services = try context.services()
      // As for sources: with a wrong key, config.json is not changed either.
      try services.checkKey()
      let subscriptions = services.subscriptions()
      let rule =
        try arguments[Options.ignoreQuery].map {
          IgnoreRule(field: .query, pattern: $0, source: arguments[Options.ignoreSource])
        }
        ?? IgnoreRule(
          field: arguments[Options.ignoreField].flatMap(IgnoreRule.Field.init(rawValue:))
            ?? .title,
          pattern: try arguments.argument("pattern"), isRegex: arguments[Options.regex],
          source: arguments[Options.ignoreSource])
      try subscriptions.addIgnoreRule(rule, providers: services.providers.names)
      let number = subscriptions.ignoreRules.count + 1
      context.printer.line(IgnoreText.rule(number, rule, verb: "added"))
      return .success
    })

  static let removeEntry = CommandEntry(
    spec: CommandSpec(
      name: "ignore remove", abstract: "Removes a rule (numbered by news ignore list).",
      arguments: [
        ArgumentSpec(
          name: "n", help: "The rule's number, as news ignore list shows it.",
          kind: .integer(1...Int.max))
      ]),
    run: { arguments, context in
      let services = try context.services()
      try services.checkKey()
      let number = try arguments.number("n")
      let rule = try services.subscriptions().removeIgnoreRule(number)
      context.printer.line(IgnoreText.rule(number, rule, verb: "removed"))
      return .success
    })

  @Sendable static func runList(_ arguments: ParsedArguments, context: Context) async throws
    -> ExitCode
  {
    let rules = try context.services().subscriptions().ignoreRules
    list(rules, json: arguments[Options.json], context: context)
    return .success
  }

  private static func list(_ rules: [IgnoreRule], json: Bool, context: Context) {
    if json {
      context.printer.json(IgnoreJSON.document(rules))
    } else {
      context.printer.lines(IgnoreText.list(rules))
    }
  }
}
