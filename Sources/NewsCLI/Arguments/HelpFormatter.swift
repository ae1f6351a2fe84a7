/// Writes `--help` text from the same specs the parser reads.
enum HelpFormatter {
  /// `news --help`.
  static func overview(_ commands: [CommandSpec]) -> String {
    let width = (commands.map(\.name.count).max() ?? 0) + 2
    var text = """
      news: the news, in your shell.

      USAGE: news <command> [options]

      COMMANDS:

      """
    for command in commands {
      text += "  " + command.name.padding(to: width) + command.abstract + "\n"
    }
    text += """

      OPTIONS:
        -h, --help    Show help information.
        --version     Show the version.

      See 'news help <command>' for the options of each command.

      """
    return text
  }

  /// `news help <command>` and `news <command> --help`.
  static func help(for command: CommandSpec) -> String {
    var text = command.abstract + "\n\nUSAGE: " + usage(command) + "\n"
    if !command.arguments.isEmpty {
      text += "\nARGUMENTS:\n"
      let width = (command.arguments.map { $0.name.count + 2 }.max() ?? 0) + 2
      for argument in command.arguments {
        text += "  " + "<\(argument.name)>".padding(to: width) + argument.help + "\n"
      }
    }
    text += "\nOPTIONS:\n"
    let labels = command.allOptions.map(label)
    let width = min((labels.map(\.count).max() ?? 0) + 2, 32)
    for (option, label) in zip(command.allOptions, labels) {
      if label.count + 2 > width {
        text += "  " + label + "\n  " + "".padding(to: width) + option.help + "\n"
      } else {
        text += "  " + label.padding(to: width) + option.help + "\n"
      }
    }
    if !command.discussion.isEmpty { text += "\n" + command.discussion + "\n" }
    return text
  }

  static func usage(_ command: CommandSpec) -> String {
    var parts = ["news", command.name]
    if !command.options.isEmpty { parts.append("[options]") }
    for argument in command.arguments {
      let name = "<\(argument.name)>" + (argument.repeating ? " ..." : "")
      parts.append(argument.required ? name : "[\(name)]")
    }
    return parts.joined(separator: " ")
  }

  private static func label(_ option: OptionSpec) -> String {
    var label = option.short.map { "-\($0), " } ?? ""
    label += "--" + option.name
    if let valueName = option.valueName { label += " " + valueName }
    return label
  }
}

extension String {
  func padding(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
