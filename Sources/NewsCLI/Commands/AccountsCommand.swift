import Foundation
import NewsCore

/// `news accounts`: the reader's accounts on their own servers (Google Reader API, Fever API).
enum AccountsCommand {
  static let spec = CommandSpec(
    name: "accounts",
    abstract: "List, add, test and remove accounts on your own server (Google Reader API, Fever).",
    discussion: """
      An account's feeds become sources named <account>/<feed> beside the local ones (in feed,
      browse, sources, search), its folders their tags; news sync brings their items, read and
      saved state from the server, and sends the marks made here (read, unread, bookmark). The
      password is asked on the terminal (no echo), or read with --password-file or
      --password-env; it is kept in the encrypted store, never in config.json.

        list             lists the accounts (the default)
        add <name>       logs in, then keeps the account (--greader or --fever, --user)
        test <name>      logs in and counts its feeds (exit 77 when refused)
        remove <name>    removes the account, its password and its items

      EXAMPLES:
        news accounts add home --greader https://rss.example.com/api/greader.php --user ann
        news accounts add cs --fever http://127.0.0.1:5000/fever --user ann@example.com \\
          --password-env COLDSWEAT_PASSWORD
        news accounts test home
        news sync --account home
        news accounts remove home
      """,
    options: [
      Options.greader.spec, Options.fever.spec, Options.user.spec, Options.passwordFile.spec,
      Options.passwordEnv.spec, Options.json.spec,
    ],
    arguments: [
      ArgumentSpec(
        name: "action", help: "list, add, test or remove.", required: false,
        choices: ["list", "add", "test", "remove"]),
      ArgumentSpec(name: "name", help: "The account's name.", required: false),
    ])

  static let entry = CommandEntry(
    spec: spec, usesNetwork: { ["add", "test"].contains($0.positionals.first) },
    validate: validate, run: run)

  /// A name for every action but list; the options of add only with add, and all it needs.
  static func validate(_ arguments: ParsedArguments, context: Context) throws {
    let action = arguments.positionals.first ?? "list"
    let name = arguments.positionals.dropFirst().first
    let addOptions = [
      Options.greader.spec, Options.fever.spec, Options.user.spec, Options.passwordFile.spec,
      Options.passwordEnv.spec,
    ]
    for option in addOptions where action != "add" && arguments.contains(option) {
      throw UsageError(command: spec.name, message: "--\(option.name) only applies to 'add'")
    }
    if action != "list", arguments[Options.json] {
      throw UsageError(command: spec.name, message: "--json only applies to 'list'")
    }
    if action == "list", let name {
      throw UsageError(command: spec.name, message: "unexpected argument '\(name)'")
    }
    if action != "list", name == nil {
      throw UsageError(command: spec.name, message: "missing <name> after '\(action)'")
    }
    guard action == "add" else { return }
    switch (arguments[Options.greader], arguments[Options.fever]) {
    case (nil, nil):
      throw UsageError(
        command: spec.name, message: "'add' needs the API's URL: --greader <url> or --fever <url>")
    case (.some, .some):
      throw UsageError(command: spec.name, message: "--greader and --fever contradict")
    case (let url?, nil), (nil, let url?):
      guard let web = URL.web(url) else {
        throw UsageError(command: spec.name, message: "'\(url)' is not an http(s) URL")
      }
      // Said without the URL: it would show the password.
      guard !Account.carriesUserInfo(web) else {
        throw UsageError(
          command: spec.name,
          message:
            "the API's URL must not hold a user name or password: give --user, and the password "
            + "when asked (or --password-file, --password-env)")
      }
    }
    if arguments[Options.user] == nil {
      throw UsageError(command: spec.name, message: "'add' needs --user <name>")
    }
    if arguments[Options.passwordFile] != nil, arguments[Options.passwordEnv] != nil {
      throw UsageError(command: spec.name, message: "--password-file and --password-env contradict")
    }
  }

  static func run(_ arguments: ParsedArguments, context: Context) async throws -> ExitCode {
    let services = try context.services()
    let accounts = try services.accounts()
    let action = arguments.positionals.first ?? "list"
    let name = arguments.positionals.dropFirst().first ?? ""
    switch action {
    case "add":
      let kind: Account.Kind = arguments[Options.greader] != nil ? .greader : .fever
      let url = URL.web(arguments[Options.greader] ?? arguments[Options.fever] ?? "")!
      let account = Account(name: name, kind: kind, url: url, user: arguments[Options.user]!)
      let password = try password(arguments, context: context, account: account)
      if let warning = account.plainTextWarning { context.warn(warning) }
      let feeds = try await accounts.add(
        account, password: password, reserved: SourceName.reserved)
      context.console.out(
        "added: \(name) (\(kind.rawValue), \(feeds) feed\(feeds == 1 ? "" : "s")); "
          + "news sync --account \(name) brings its items\n")
    case "test":
      if let warning = try accounts.account(name).plainTextWarning { context.warn(warning) }
      let feeds = try await accounts.test(name)
      context.console.out("\(name): logged in, \(feeds) feed\(feeds == 1 ? "" : "s")\n")
    case "remove":
      let sources = try accounts.remove(name)
      context.console.out(
        "removed: \(name) (\(sources.count) source\(sources.count == 1 ? "" : "s") and their items)\n"
      )
    default:
      try list(accounts, json: arguments[Options.json], context: context)
    }
    return .success
  }

  /// The password: from the file or variable named, else asked on the terminal.
  private static func password(_ arguments: ParsedArguments, context: Context, account: Account)
    throws -> String
  {
    if let path = arguments[Options.passwordFile] {
      let url = URL(fileURLWithPath: path, relativeTo: context.currentDirectory)
      guard let text = try? String(contentsOf: url, encoding: .utf8) else {
        throw AccountError.noPassword("cannot read --password-file \(path)")
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
    guard
      let typed = context.readSecret(
        "Password for \(account.user) at \(account.url.host ?? "?"): "),
      !typed.isEmpty
    else {
      throw AccountError.noPassword(
        "standard input is not a terminal: use --password-file or --password-env")
    }
    return typed
  }

  private static func list(_ accounts: AccountService, json: Bool, context: Context) throws {
    let states = try accounts.states()
    if json {
      let document = JSONValue.object([
        ("schemaVersion", .int(ArticleJSON.schemaVersion)),
        (
          "accounts",
          .array(
            try states.map { account, state in
              .object([
                ("name", .string(account.name)), ("type", .string(account.kind.rawValue)),
                ("url", .string(account.url.absoluteString)), ("user", .string(account.user)),
                ("feeds", .int(state.feeds.count)), ("lastSyncAt", .date(state.lastSyncAt)),
                ("pendingMarks", .int(try accounts.pending(account.name).count)),
                ("goneBookmarks", .int(try accounts.goneBookmarks(account.name))),
                ("sources", .array(state.feeds.map { .string($0.source) })),
              ])
            })
        ),
      ])
      context.console.out(document.serialized(pretty: true) + "\n")
      return
    }
    guard !states.isEmpty else {
      context.console.out(
        "No accounts (news accounts add <name> --greader <url> | --fever <url> --user <name>).\n")
      return
    }
    for (account, state) in states {
      let synced = state.lastSyncAt.map { "synced " + ISO8601.string(from: $0) } ?? "not synced yet"
      let pending = try accounts.pending(account.name).count
      let gone = try accounts.goneBookmarks(account.name)
      context.console.out(
        "\(account.name)  \(account.kind.rawValue)  \(TerminalSanitizer.clean(account.user)) at "
          + "\(TerminalSanitizer.clean(account.url.absoluteString))  \(state.feeds.count) feed"
          + (state.feeds.count == 1 ? ", " : "s, ")
          + synced + (pending > 0 ? ", \(pending) marks to send" : "")
          + (gone > 0
            ? ", \(gone) bookmark\(gone == 1 ? "" : "s") gone from the server (kept here)" : "")
          + "\n")
    }
  }
}
