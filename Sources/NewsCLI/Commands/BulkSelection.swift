import FeedParsing
import Foundation
import NewsCore

/// The bulk marks (`news read|unread|bookmark --where <query> [--dry-run]`, `news read
/// --older-than 7d [--source]`): the articles the query matches, exactly as `news search`
/// lists them, marked at once, and how many changed said in one line.
enum BulkSelection {
  /// Whether the arguments ask for a bulk mark.
  static func asked(_ arguments: ParsedArguments) -> Bool {
    arguments[Options.whereQuery] != nil || arguments[Options.olderThan] != nil
  }

  /// The query the arguments make: `--where`, and `age>` for `--older-than`.
  static func query(_ arguments: ParsedArguments, context: Context) throws -> ArticleQuery {
    var parts: [String] = []
    if let text = arguments[Options.whereQuery] {
      // Read alone first, so that an error's column is the user's own.
      _ = try ArticleQuery(text, timeZone: context.timeZone)
      parts.append("(\(text))")
    }
    if let age = arguments[Options.olderThan] {
      do {
        try ArticleQuery.check("age>" + age)
      } catch {
        throw UsageError(
          command: arguments.command.name,
          message: "--older-than takes a duration: a number and m, h, d or w (7d, 12h, 2w)")
      }
      parts.append("age>" + age)
    }
    return try ArticleQuery(parts.joined(separator: " "), timeZone: context.timeZone)
  }

  /// Marks what the arguments select `mark`, or with `--dry-run` only counts; prints one line.
  static func run(
    _ mark: BulkMark, _ arguments: ParsedArguments, context: Context
  ) throws -> ExitCode {
    let lists = try context.services().lists()
    let (matched, warnings) = try lists.matching(try query(arguments, context: context))
    warnings.forEach(context.warn)
    var articles = matched
    if let source = arguments[Options.readSource] {
      articles = articles.filter { $0.provider == source }
    }
    let ids = articles.map(\.id)
    if arguments[Options.dryRun] {
      let count = try lists.wouldChange(ids, mark: mark)
      context.printer.line(
        ArticleActionText.bulk(mark, count: count, matching: ids.count, dryRun: true))
      return .success
    }
    let result: ListService.MarkResult
    switch mark {
    case .read: result = try lists.mark(ids, read: true, counting: true)
    case .unread: result = try lists.mark(ids, read: false, counting: true)
    case .bookmark: result = try lists.bookmark(articles)
    }
    result.warnings.forEach(context.warn)
    context.printer.line(
      ArticleActionText.bulk(mark, count: result.count, matching: ids.count, dryRun: false))
    return .success
  }

  /// `--where` or `--older-than`, or ids, not both; `--dry-run` only with them; ids or a
  /// selection given.
  static func validate(_ arguments: ParsedArguments, context: Context) throws {
    let command = arguments.command.name
    if asked(arguments), !arguments.positionals.isEmpty {
      throw UsageError(command: command, message: "give ids or --where, not both")
    }
    if arguments[Options.dryRun], !asked(arguments) {
      throw UsageError(command: command, message: "--dry-run only applies with --where")
    }
    guard asked(arguments) || !arguments.positionals.isEmpty else {
      throw UsageError(command: command, message: "missing <id> (or --where <query>)")
    }
    if asked(arguments) { _ = try query(arguments, context: context) }
  }
}
