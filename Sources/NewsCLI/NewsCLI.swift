import FeedParsing
import Foundation
import NewsCore

/// The `news` command line: parses arguments, runs a command, maps errors to exit codes.
public enum NewsCLI {
  /// Every subcommand, in the order `news --help` lists them, `--from` knowing `providers`.
  static func commands(_ providers: ProviderRegistry = .builtIn) -> [CommandEntry] {
    [
      HeadlinesCommand.entry(providers),
      ShowCommand.entry,
      FeedCommand.entry,
      SourcesCommand.entry,
      IgnoreCommand.entry,
      ImportCommand.entry,
      SyncCommand.entry,
      ServeCommand.entry,
      AccountsCommand.entry,
      SearchCommand.entry,
      BookmarkCommands.add,
      BookmarkCommands.remove,
      BookmarkCommands.list,
      BrowseCommand.entry(providers),
      ReadCommands.read,
      ReadCommands.unread,
      OpenCommand.entry,
      PlayCommand.entry,
      DownloadCommand.entry,
      DoctorCommand.entry,
      SendCommand.entry,
      KeysCommand.entry,
      DocumentationCommands.completion,
      DocumentationCommands.manual,
    ]
  }

  /// The specs of every subcommand.
  public static var commandSpecs: [CommandSpec] { commands().map(\.spec) }

  /// Runs `news` with `arguments` (without the program name) and returns the exit code.
  ///
  /// Errors are written to standard error as one line starting with `news: `.
  public static func run(_ arguments: [String], context: Context) async -> ExitCode {
    var context = context
    context.startedAt = context.timing.mark()
    // Read once for the whole run; a command that needs it gets this result, error included.
    context.loadedSettings = Result { try context.readSettings() }
    // A broken configuration is reported by the command that reads it; standard error is
    // prepared with what there is.
    context.prepareStandardError(context.validConfiguration)
    // A damaged side file (full texts, bookmarks…) is a warning as it is met; the command goes on.
    // The handler holds the console, not the context: the context holds the stores, and stores
    // holding the context back would keep both (and every service) for good.
    let (console, style) = (context.console, context.errorStyle)
    context.openedStores.reportDamage { Context.warn($0.sentence, on: console, style: style) }
    var code = await runCommand(arguments, context: context)
    await context.analytics.flush(within: context.analyticsFlushLimit, sleep: context.timing.limit)
    if let reason = context.console.writeFailure() {
      context.fail("cannot write to standard output: \(reason)")
      if code == .success { code = .ioError }
    }
    return code
  }

  private static func runCommand(_ arguments: [String], context: Context) async -> ExitCode {
    do {
      return try await dispatch(arguments, context: context)
    } catch let error as any NewsError {
      context.fail(failure(error, arguments: arguments))
      return error.exitCode
    } catch is CancellationError {
      return .interrupted
    } catch {
      context.fail("unexpected error: \(String(describing: error))")
      return .internalError
    }
  }

  /// The line a failed command ends with: the error's message, its advice, and for a usage
  /// error where to read more, in one parenthesis (`(news accounts lists them; see 'news
  /// accounts --help')`).
  private static func failure(_ error: any NewsError, arguments: [String]) -> String {
    let hint = usageHint(for: error, arguments: arguments)
    guard let advice = error.advice else { return error.message + (hint.map { " (\($0))" } ?? "") }
    return "\(error.message) (\(advice.words)\(hint.map { "; " + $0 } ?? ""))"
  }

  /// Every usage error (exit 64) ends with where to read more: `see 'news show --help'`.
  private static func usageHint(for error: any NewsError, arguments: [String]) -> String? {
    guard error.exitCode == .usage, !error.message.hasSuffix("--help')"),
      !(error is any CompleteUsageMessage)
    else { return nil }
    let command = arguments.first.flatMap { name in commands().first { $0.spec.name == name } }
      .map { $0.resolve(arguments.dropFirst()).entry }
    return "see '\(command.map { "news \($0.spec.name) --help" } ?? "news --help")'"
  }

  private static func dispatch(_ arguments: [String], context: Context) async throws -> ExitCode {
    let console = context.console
    let printer = context.printer
    // Help is wrapped to COLUMNS (environment or .env) or the terminal, even when the rest of the
    // configuration is broken.
    let width = context.validConfiguration.map(context.width) ?? console.width
    guard let first = arguments.first else {
      printer.text(HelpFormatter.overview(commandSpecs, width: width))
      return .success
    }
    switch first {
    case "-h", "--help":
      if let name = arguments.dropFirst().first {
        let entry = try command(named: name).resolve(arguments.dropFirst(2)).entry
        printer.text(HelpFormatter.help(for: entry.spec, width: width))
      } else {
        printer.text(HelpFormatter.overview(commandSpecs, width: width))
      }
      return .success
    case "--version", "version":
      printer.text("news \(NewsVersion.current)\n")
      return .success
    case "help":
      if arguments.dropFirst().first == "--man" {
        printer.text(ManualPage.render(commandSpecs))
        return .success
      }
      guard let name = arguments.dropFirst().first else {
        printer.text(HelpFormatter.overview(commandSpecs, width: width))
        return .success
      }
      let entry = try command(named: name).resolve(arguments.dropFirst(2)).entry
      printer.text(HelpFormatter.help(for: entry.spec, width: width))
      return .success
    default:
      let top = try command(named: first, providers: context.providers)
      let (entry, rest) = top.resolve(arguments.dropFirst())
      try checkAction(rest.first, of: entry)
      let family = [top.spec] + top.spec.subcommands
      let parsed = try ArgumentParser.parse(Array(rest), for: entry.spec, family: family)
      if parsed[Options.help] {
        printer.text(HelpFormatter.help(for: entry.spec, width: width))
        return .success
      }
      try entry.validate(parsed, context)
      if entry.usesNetwork(parsed) { try context.activateAnalytics() }
      return try await entry.run(parsed, context)
    }
  }

  /// A word where a command with subcommands expects one: an action it does not have.
  private static func checkAction(_ word: String?, of entry: CommandEntry) throws(UsageError) {
    guard let word, !word.hasPrefix("-"), !entry.subcommands.isEmpty, entry.spec.arguments.isEmpty
    else { return }
    let actions = entry.subcommands.map(\.spec.word)
    throw UsageError(
      command: entry.spec.name,
      message: "unknown action '\(word)'; the actions are \(actions.joined(separator: ", "))",
      hint: EditDistance.closest(to: word, in: actions).map { "did you mean '\($0)'?" })
  }

  private static func command(
    named name: String, providers: ProviderRegistry = .builtIn
  ) throws(UsageError) -> CommandEntry {
    if let entry = commands(providers).first(where: { $0.spec.name == name }) { return entry }
    if name.hasPrefix("-") {
      throw UsageError(
        command: nil, message: "unknown option '\(name)'; options go after the command",
        hint: "e.g. 'news headlines \(name)'")
    }
    let suggestion = EditDistance.closest(to: name, in: commandSpecs.map(\.name))
    throw UsageError(
      command: nil, message: "unknown command '\(name)'",
      hint: suggestion.map { "did you mean '\($0)'?" })
  }
}
