import Foundation
import NewsCore

/// `news sources add|remove|import|export`.
enum SourcesActions {
  static func run(
    _ action: String, value: String?, arguments: ParsedArguments, services: NewsServices,
    context: Context
  ) async throws -> ExitCode {
    let command = SourcesCommand.spec.name
    let actions = ["add", "remove", "set", "import", "export"]
    guard actions.contains(action) else {
      throw UsageError(
        command: command,
        message: "unknown action '\(action)'; the actions are \(actions.joined(separator: ", "))",
        hint: Suggestion.closest(to: action, in: actions).map { "did you mean '\($0)'?" })
    }
    if action != "export", arguments[Options.json] {
      throw UsageError(command: command, message: "--json does not apply to '\(action)'")
    }
    let searching = action == "add" ? arguments[Options.saveSearch] : nil
    let placeholder =
      searching != nil
      ? nil : ["add": "<url>", "remove": "<name>", "set": "<name>", "import": "<file>"][action]
    if let placeholder, value == nil {
      throw UsageError(command: command, message: "missing \(placeholder) after '\(action)'")
    }
    if placeholder == nil, let value {
      throw UsageError(command: command, message: "unexpected argument '\(value)'")
    }
    // The key first: with a wrong one, nothing is fetched, written or even exported.
    try services.checkKey()
    if let account = arguments[Options.onAccount] {
      return try await onAccount(
        action, value!, account: account, services: services, context: context)
    }
    let subscriptions = services.subscriptions()
    switch action {
    case "add" where searching != nil:
      let name = try subscriptions.addSearch(searching!, name: arguments[Options.sourceName])
      context.console.out("added: \(name) (saved search: \(TerminalSanitizer.clean(searching!)))\n")
    case "add":
      return try await add(value!, arguments: arguments, subscriptions, context: context)
    case "set":
      let settings = SourceSettings(
        ttl: arguments[Options.ttl], maxItems: arguments[Options.maxItems],
        tags: arguments[Options.tags].map { $0 == ["none"] ? [] : $0 },
        enabled: arguments[Options.enable] ? true : arguments[Options.disable] ? false : nil)
      guard settings != SourceSettings() else {
        throw UsageError(
          command: command,
          message: "'set' needs a setting: --ttl, --max-items, --tags, --enable or --disable")
      }
      try subscriptions.set(value!, settings)
      context.console.out("set: \(value!)\n")
    case "remove":
      let unsubscribed = try await services.removeSource(value!)
      context.console.out(
        "removed: \(value!)" + (unsubscribed ? " (unsubscribed on its server)" : "") + "\n")
    case "import":
      return try importFile(value!, subscriptions, context: context)
    default:
      context.console.out(subscriptions.export())
    }
    return .success
  }

  private static func add(
    _ text: String, arguments: ParsedArguments, _ subscriptions: SubscriptionService,
    context: Context
  ) async throws -> ExitCode {
    guard let url = URL.web(text) else {
      throw UsageError(
        command: SourcesCommand.spec.name,
        message: "'\(TerminalSanitizer.clean(text))' is not an http:// or https:// URL")
    }
    let spinner = Spinner(
      line: context.statusLine, unicode: context.console.unicode, pause: context.timing.limit)
    spinner.start("fetching \(url.host ?? text)…")
    let added: SubscriptionService.Added
    do {
      added = try await subscriptions.add(
        url, name: arguments[Options.sourceName], ttl: arguments[Options.ttl])
      await spinner.stop()
    } catch {
      await spinner.stop()
      throw error
    }
    let link = TerminalSanitizer.clean(added.url.absoluteString)
    // What was fetched is kept as a refresh keeps it: listed, searchable, "fetched" at once.
    if let report = try await context.services().keep(added) {
      for warning in report.warnings { context.warn(warning) }
      if let problem = report.notKept ?? report.error { context.warn(problem) }
    }
    if added.existed {
      context.console.out("already subscribed: \(added.name) (\(link))\n")
    } else {
      let title = added.title.map { " · " + TerminalSanitizer.clean($0) } ?? ""
      context.console.out(
        "added: \(added.name) (\(link))\(title) · \(added.itemCount) item\(added.itemCount == 1 ? "" : "s")\n"
      )
    }
    return .success
  }

  /// `add <url> --account` and `import <file> --account`: subscriptions on the server.
  private static func onAccount(
    _ action: String, _ value: String, account: String, services: NewsServices, context: Context
  ) async throws -> ExitCode {
    let accounts = try services.accounts()
    _ = try accounts.account(account)
    var feeds: [(url: URL, folder: String?)] = []
    if action == "add" {
      guard let url = URL.web(value) else {
        throw UsageError(
          command: SourcesCommand.spec.name,
          message: "'\(TerminalSanitizer.clean(value))' is not an http:// or https:// URL")
      }
      feeds = [(url, nil)]
    } else {
      let data = try SubscriptionFile.read(value, relativeTo: context.currentDirectory)
      let parsed: (subscriptions: [Subscription], skipped: [String])
      do {
        parsed = try SubscriptionFile.parse(data)
      } catch {
        throw SubscriptionError.unreadableFile(path: value, reason: error.detail)
      }
      for skipped in parsed.skipped { context.warn("\(value): \(skipped); skipped") }
      feeds = parsed.subscriptions.map { ($0.url, $0.tags.first) }
    }
    try await accounts.subscribe(account, feeds: feeds) { url in
      context.console.out(
        "subscribed on \(account): \(TerminalSanitizer.clean(url.absoluteString))\n")
    }
    context.console.out("news sync --account \(account) brings the items\n")
    return .success
  }

  private static func importFile(
    _ path: String, _ subscriptions: SubscriptionService, context: Context
  ) throws -> ExitCode {
    let data = try SubscriptionFile.read(path, relativeTo: context.currentDirectory)
    let imported = try subscriptions.importFile(data, path: path)
    for skipped in imported.skipped { context.warn("\(path): \(skipped); skipped") }
    for (name, link) in imported.added {
      context.console.out("added: \(name) (\(TerminalSanitizer.clean(link.absoluteString)))\n")
    }
    let count = imported.added.count
    context.console.out(
      "imported \(count) feed\(count == 1 ? "" : "s")"
        + (imported.existing > 0 ? ", \(imported.existing) subscribed already" : "") + "\n")
    return .success
  }
}
