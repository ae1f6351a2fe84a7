import Foundation
import NewsCore

/// `news ignore`: the rules that hide items (a killfile), in `config.json`.
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
      or feed source. Rules live in config.json's "ignore" list, edited in place.

        add <pattern>    adds a rule
        remove <n>       removes rule n (numbered by news ignore list)
        list             lists the rules (the default)

      EXAMPLES:
        news ignore add "sponsored"
        news ignore add "crypto|nft" --regex --in text --source hn
        news ignore list --json
        news ignore remove 2
      """,
    options: [
      Options.ignoreField.spec, Options.ignoreSource.spec, Options.regex.spec, Options.json.spec,
    ],
    arguments: [
      ArgumentSpec(
        name: "action", help: "add, remove or list.", required: false,
        choices: ["add", "remove", "list"]),
      ArgumentSpec(name: "value", help: "The pattern, or the rule's number.", required: false),
    ])

  static let entry = CommandEntry(spec: spec, validate: validate, run: run)

  /// Each option with its action; a pattern for add, a rule number for remove.
  static func validate(_ arguments: ParsedArguments, context: Context) throws {
    let action = arguments.positionals.first ?? "list"
    let value = arguments.positionals.dropFirst().first
    for option in [Options.ignoreField.spec, Options.ignoreSource.spec, Options.regex.spec]
    where action != "add" && arguments.contains(option) {
      throw UsageError(command: spec.name, message: "--\(option.name) only applies to 'add'")
    }
    if action != "list", arguments[Options.json] {
      throw UsageError(command: spec.name, message: "--json only applies to 'list'")
    }
    switch action {
    case "add" where value == nil:
      throw UsageError(command: spec.name, message: "missing <pattern> after 'add'")
    case "remove" where value.flatMap { Int($0) } == nil:
      throw UsageError(
        command: spec.name, message: "'remove' takes a rule's number (news ignore list)")
    case "list" where value != nil:
      throw UsageError(command: spec.name, message: "unexpected argument '\(value!)'")
    default:
      break
    }
  }

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let services = try context.services()
    let subscriptions = services.subscriptions()
    let value = arguments.positionals.dropFirst().first
    let action = arguments.positionals.first ?? "list"
    // As for sources: with a wrong key, config.json is not changed either.
    if action != "list" { try services.checkKey() }
    switch action {
    case "add":
      let rule = IgnoreRule(
        field: arguments[Options.ignoreField].flatMap(IgnoreRule.Field.init(rawValue:)) ?? .title,
        pattern: value!, isRegex: arguments[Options.regex], source: arguments[Options.ignoreSource])
      try subscriptions.addIgnoreRule(rule, providers: services.providers.names)
      let number = subscriptions.ignoreRules.count + 1
      context.console.out("added rule \(number): \(TerminalSanitizer.clean(rule.summary))\n")
    case "remove":
      let number = Int(value!)!
      let rule = try subscriptions.removeIgnoreRule(number)
      context.console.out("removed rule \(number): \(TerminalSanitizer.clean(rule.summary))\n")
    default:
      list(subscriptions.ignoreRules, json: arguments[Options.json], context: context)
    }
    return .success
  }

  private static func list(_ rules: [IgnoreRule], json: Bool, context: Context) {
    if json {
      let document = JSONValue.object([
        ("schemaVersion", .int(ArticleJSON.schemaVersion)),
        (
          "rules",
          .array(
            rules.enumerated().map { index, rule in
              .object([
                ("number", .int(index + 1)), ("field", .string(rule.field.rawValue)),
                ("pattern", .string(rule.pattern)), ("regex", .bool(rule.isRegex)),
                ("source", .string(rule.source)),
              ])
            })
        ),
      ])
      context.console.out(document.serialized(pretty: true) + "\n")
      return
    }
    guard !rules.isEmpty else {
      context.console.out("No ignore rules (news ignore add <words>).\n")
      return
    }
    for (index, rule) in rules.enumerated() {
      context.console.out("\(index + 1). \(TerminalSanitizer.clean(rule.summary))\n")
    }
  }
}
