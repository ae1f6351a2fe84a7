import FeedParsing
import Foundation
import NewsCore

/// `news accounts`, `news accounts list|add|test|remove`: the reader's accounts on their own
/// servers (Google Reader API, Fever API, Miniflux, Nextcloud News, Tiny Tiny RSS, Feedbin).
enum AccountsCommand {
  static let spec = CommandSpec(
    name: "accounts",
    abstract:
      "List, add, test and remove accounts on your own server (Google Reader, Fever, Miniflux, "
      + "Nextcloud News, Tiny Tiny RSS, Feedbin).",
    discussion: """
      An account's feeds become sources named <account>/<feed> beside the local ones (in feed,
      browse, sources, search), its folders their tags; news sync brings their items, read and
      saved state from the server, and sends the marks made here (read, unread, bookmark). The
      password is asked on the terminal (no echo), or read with --password-file or
      --password-env; it is kept in the encrypted store, never in config.json. Without a
      subcommand: the accounts.

      EXAMPLES:
        news accounts add home --greader https://rss.example.com/api/greader.php --user ann
        news accounts add cs --fever http://127.0.0.1:5000/fever --user ann@example.com \\
          --password-env COLDSWEAT_PASSWORD
        news accounts test home
        news sync --account home
        news accounts remove home
      """,
    options: [Options.json.spec])

  private static let nameArgument = ArgumentSpec(name: "name", help: "The account's name.")
  /// An account there is (completed from their names).
  private static let existingAccount = ArgumentSpec(
    name: "name", help: "The account's name.", completes: .accounts)

  static let entry = CommandEntry(
    spec: spec, subcommands: [listEntry, addEntry, testEntry, removeEntry], run: runList)

  static let listEntry = CommandEntry(
    spec: CommandSpec(
      name: "accounts list", abstract: "Lists the accounts (the default).",
      options: [Options.json.spec]),
    run: runList)

  static let addEntry = CommandEntry(
    spec: CommandSpec(
      name: "accounts add", abstract: "Logs in, then keeps the account.",
      discussion: """
        The server's kind and URL: --greader (FreshRSS, Inoreader, …) or --fever (Coldsweat, …)
        with the API's URL; --miniflux, --nextcloud or --ttrss with the server's own URL; or
        --feedbin (api.feedbin.com; --url for a Feedbin of your own). --user gives the user (an
        e-mail address for Feedbin and Fever; none for Miniflux with an API key). The password,
        app password or API key is asked on the terminal (no echo), or read with --password-file
        or --password-env.

        EXAMPLES:
          news accounts add home --greader https://rss.example.com/api/greader.php --user ann
          news accounts add mf --miniflux https://miniflux.example.com --password-env MINIFLUX_KEY
          news accounts add nc --nextcloud https://cloud.example.com --user ann
          news accounts add tt --ttrss https://example.com/tt-rss/ --user ann
          news accounts add fb --feedbin --user ann@example.com
        """,
      options: Options.accountKinds.map(\.option.spec) + [
        Options.feedbin.spec, Options.apiURL.spec, Options.user.spec, Options.passwordFile.spec,
        Options.passwordEnv.spec,
      ],
      arguments: [nameArgument]),
    usesNetwork: { _ in true }, validate: validateAdd, run: runAdd)

  static let testEntry = CommandEntry(
    spec: CommandSpec(
      name: "accounts test",
      abstract:
        "Logs in, counts its feeds, and marks a read item unread and read again (exit 77 when "
        + "refused).",
      arguments: [existingAccount]),
    usesNetwork: { _ in true },
    run: { arguments, context in
      let name = try arguments.argument("name")
      let accounts = try context.services().accounts()
      if let warning = try accounts.account(name).plainTextWarning { context.warn(warning) }
      let (feeds, item) = try await accounts.test(name)
      context.printer.line(AccountsText.tested(name, feeds: feeds, roundTrip: item))
      return .success
    })

  static let removeEntry = CommandEntry(
    spec: CommandSpec(
      name: "accounts remove", abstract: "Removes the account, its password and its items.",
      arguments: [existingAccount]),
    run: { arguments, context in
      let name = try arguments.argument("name")
      let sources = try context.services().accounts().remove(name)
      context.printer.line(AccountsText.removed(name, sources: sources.count))
      return .success
    })

  /// The API's URL, typed: one of the kinds' options (`--greader <url>`, …, `--feedbin`), http(s),
  /// without user info.
  private static func server(_ arguments: ParsedArguments) throws(UsageError) -> (
    Account.Kind, URL
  ) {
    let command = addEntry.spec.name
    var given = Options.accountKinds.compactMap { kind, option in
      arguments[option].map { (kind, $0) }
    }
    if arguments[Options.feedbin] {
      given.append(
        (
          .feedbin,
          arguments[Options.apiURL] ?? Account.Kind.feedbin.defaultURL?.absoluteString ?? ""
        ))
    } else if arguments[Options.apiURL] != nil {
      throw UsageError(command: command, message: "--url goes with --feedbin")
    }
    let flags = Options.accountKinds.map { "--\($0.kind.rawValue) <url>" } + ["--feedbin"]
    guard let (kind, text) = given.first else {
      throw UsageError(
        command: command,
        message: "'add' needs the server's kind and URL: one of " + flags.joined(separator: ", "))
    }
    guard given.count == 1 else {
      throw UsageError(
        command: command,
        message: given.map { "--\($0.0.rawValue)" }.joined(separator: " and ") + " contradict")
    }
    guard let web = URL.web(text) else {
      throw UsageError(command: command, message: "'\(text)' is not an http(s) URL")
    }
    // Said without the URL: it would show the password.
    guard !Account.carriesUserInfo(web) else {
      throw UsageError(
        command: command,
        message:
          "the API's URL must not hold a user name or password: give --user, and the password "
          + "when asked (or --password-file, --password-env)")
    }
    return (kind, web)
  }

  /// Everything `add` needs, before anything is asked or sent.
  static func validateAdd(_ arguments: ParsedArguments, context: Context) throws {
    let (kind, _) = try server(arguments)
    if arguments[Options.user] == nil, !kind.takesAPIKey {
      throw UsageError(command: addEntry.spec.name, message: "'add' needs --user <name>")
    }
    if arguments[Options.passwordFile] != nil, arguments[Options.passwordEnv] != nil {
      throw UsageError(
        command: addEntry.spec.name, message: "--password-file and --password-env contradict")
    }
  }

  @Sendable static func runAdd(_ arguments: ParsedArguments, context: Context) async throws
    -> ExitCode
  {
    let name = try arguments.argument("name")
    let (kind, url) = try server(arguments)
    // Miniflux without a user: the secret asked is an API key.
    guard let user = arguments[Options.user] ?? (kind.takesAPIKey ? "" : nil) else {
      throw UsageError(command: addEntry.spec.name, message: "'add' needs --user <name>")
    }
    let accounts = try context.services().accounts()
    let account = Account(name: name, kind: kind, url: url, user: user)
    let password = try password(arguments, context: context, account: account)
    if let warning = account.plainTextWarning { context.warn(warning) }
    let feeds = try await accounts.add(account, password: password, reserved: SourceName.reserved)
    context.printer.line(AccountsText.added(name, kind: kind, feeds: feeds))
    return .success
  }

  @Sendable static func runList(_ arguments: ParsedArguments, context: Context) async throws
    -> ExitCode
  {
    try list(context.services().accounts(), json: arguments[Options.json], context: context)
    return .success
  }

  /// The password: from the file or variable named, else asked on the terminal.
  private static func password(_ arguments: ParsedArguments, context: Context, account: Account)
    throws -> String
  {
    if let path = arguments[Options.passwordFile] {
      let url = URL(fileURLWithPath: path, relativeTo: context.currentDirectory)
      guard let data = FileManager.default.contents(atPath: url.path) else {
        throw AccountError.noPassword(
          "cannot read --password-file \(path): no such file, or not readable")
      }
      guard let text = String(data: data, encoding: .utf8) else {
        throw AccountError.noPassword("--password-file \(path) is not UTF-8 text")
      }
      guard let line = text.split(whereSeparator: \.isNewline).first, !line.isEmpty else {
        throw AccountError.noPassword("--password-file \(path) is empty")
      }
      return String(line)
    }
    if let variable = arguments[Options.passwordEnv] {
      guard let value = context.environment[variable], !value.isEmpty else {
        throw AccountError.noPassword("the variable \(variable) (--password-env) is not set")
      }
      return value
    }
    let prompt =
      account.user.isEmpty
      ? "API key for \(account.url.host ?? "?"): "
      : "Password for \(account.user) at \(account.url.host ?? "?"): "
    guard
      let typed = context.readSecret(prompt),
      !typed.isEmpty
    else {
      throw AccountError.noPassword(
        "standard input is not a terminal: use --password-file or --password-env")
    }
    return typed
  }

  private static func list(_ accounts: AccountService, json: Bool, context: Context) throws {
    let rows = try accounts.states().map { account, state in
      AccountsJSON.Row(
        account: account, state: state, pendingMarks: try accounts.pending(account.name).count,
        goneBookmarks: try accounts.goneBookmarks(account.name))
    }
    if json {
      context.printer.json(AccountsJSON.document(rows))
    } else {
      context.printer.lines(AccountsText.list(rows))
    }
  }
}
