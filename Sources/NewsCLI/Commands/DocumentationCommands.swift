import NewsCore

/// `news completion <shell>` and `news manual`.
enum DocumentationCommands {
  /// `help` as completions see it: it takes a command name.
  static let helpSpec = CommandSpec(
    name: "help", abstract: "Show help for a command.",
    arguments: [ArgumentSpec(name: "command", help: "The command to explain.", required: false)])

  static let completion = CommandEntry(
    spec: CommandSpec(
      name: "completion",
      abstract: "Print a shell completion script (bash, zsh or fish).",
      discussion: """
        EXAMPLES:
          news completion bash > /etc/bash_completion.d/news
          news completion zsh > "${fpath[1]}/_news"
          news completion fish > ~/.config/fish/completions/news.fish
        """,
      arguments: [
        ArgumentSpec(name: "shell", help: "bash, zsh or fish.", choices: CompletionScript.shells)
      ]),
    run: { arguments, context in
      let shell = try arguments.argument("shell")
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
