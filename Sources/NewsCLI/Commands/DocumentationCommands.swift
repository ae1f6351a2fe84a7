import NewsCore

/// `news completion <shell>` and `news manual`.
enum DocumentationCommands {
  /// `help` as completions see it: it takes a command name.
  static let helpSpec = CommandSpec(
    name: "help", abstract: "Show help for a command.",
    arguments: [ArgumentSpec(name: "command", help: "The command to explain.", required: false)])

  /// `--list <names>` of completion.
  static let list = OptionKey<String>.choice(
    "list", "<names>", choices: CompletedNames.allCases.map(\.rawValue),
    help: "Print the names the scripts complete, one a line: sources, tags or accounts.")

  static let completion = CommandEntry(
    spec: CommandSpec(
      name: "completion",
      abstract: "Print a shell completion script (bash, zsh or fish).",
      discussion: """
        The scripts complete commands, options and their fixed values, and the names of your
        sources, tags and accounts (after --source, --tag, --account, sources set and remove,
        accounts test and remove), which they ask 'news completion --list sources' (tags,
        accounts) for as you type.

        EXAMPLES:
          news completion bash > /etc/bash_completion.d/news
          news completion zsh > "${fpath[1]}/_news"
          news completion fish > ~/.config/fish/completions/news.fish
        """,
      options: [list.spec],
      arguments: [
        ArgumentSpec(
          name: "shell", help: "bash, zsh or fish.", required: false,
          choices: CompletionScript.shells)
      ]),
    run: { arguments, context in
      if let names = arguments[list].flatMap(CompletedNames.init(rawValue:)) {
        // Asked at every Tab: the configuration's names (and the accounts' feeds), nothing
        // fetched.
        let services = try context.services()
        let listed =
          switch names {
          case .sources: services.feedSources().map(\.name)
          case .tags: Array(Set(services.feedSources().flatMap(\.tags))).sorted()
          case .accounts: try services.accounts().accounts().map(\.name)
          }
        for name in listed { context.printer.line(name) }
        return .success
      }
      guard let shell = arguments.optionalArgument("shell") else {
        throw UsageError(command: "completion", message: "missing <shell>: bash, zsh or fish")
      }
      guard
        let script = CompletionScript.script(
          for: shell, commands: NewsCLI.commandSpecs + [helpSpec])
      else {
        throw UsageError(
          command: "completion",
          message: "no completions for '\(shell)'; choose bash, zsh or fish")
      }
      context.printer.text(script)
      return .success
    })

  static let manual = CommandEntry(
    spec: CommandSpec(
      name: "manual",
      abstract: "Print the manual page (roff).",
      discussion: """
        EXAMPLES:
          news manual | man -l -
          news manual > /usr/local/share/man/man1/news.1
        """),
    run: { _, context in
      context.printer.text(ManualPage.render(NewsCLI.commandSpecs))
      return .success
    })
}
