import FeedParsing
import NewsCore

/// Writes `--help` text from the same specs the parser reads, wrapped to the terminal's width.
enum HelpFormatter {
  /// `news --help`.
  static func overview(_ commands: [CommandSpec], width: Int = 80) -> String {
    let column = (commands.map(\.name.count).max() ?? 0) + 4
    var text = """
      news: the news, in your shell.

      USAGE: news <command> [options]

      COMMANDS:

      """
    for command in commands {
      text += row("  " + command.name, command.abstract, column: column, width: width)
    }
    text += """

      OPTIONS:
        -h, --help    Show help information.
        --version     Show the version.

      See 'news help <command>' for the options of each command.

      """
    return text
  }

  /// `news help <command>`, `news <command> --help` and `news --help <command>`.
  static func help(for command: CommandSpec, width: Int = 80) -> String {
    var text = paragraph(command.abstract, width: width) + "\nUSAGE: " + usage(command) + "\n"
    if !command.subcommands.isEmpty {
      text += "       news \(command.name) <subcommand>\n\nSUBCOMMANDS:\n"
      let column = (command.subcommands.map { $0.word.count }.max() ?? 0) + 6
      for subcommand in command.subcommands {
        text += row("  " + subcommand.word, subcommand.abstract, column: column, width: width)
      }
      text += "\n  See 'news \(command.name) <subcommand> --help' for the options of each.\n"
    }
    if !command.arguments.isEmpty {
      text += "\nARGUMENTS:\n"
      let column = (command.arguments.map { $0.name.count + 2 }.max() ?? 0) + 4
      for argument in command.arguments {
        text += row("  <\(argument.name)>", argument.help, column: column, width: width)
      }
    }
    text += "\nOPTIONS:\n"
    let labels = command.allOptions.map { "  " + label($0) }
    let column = min((labels.map(\.count).max() ?? 0) + 2, 34)
    for (option, label) in zip(command.allOptions, labels) {
      text += row(label, option.help, column: column, width: width)
    }
    if !command.discussion.isEmpty { text += "\n" + discussion(command.discussion, width: width) }
    return text
  }

  /// Prose is reflowed to `width` paragraph by paragraph; indented lines (examples, crontab
  /// lines) and headings (`EXAMPLES:`) are kept as written.
  private static func discussion(_ text: String, width: Int) -> String {
    var out = ""
    var prose: [String] = []
    func flush() {
      guard !prose.isEmpty else { return }
      out +=
        TextWrapper.wrap(prose.joined(separator: " "), width: width).joined(separator: "\n")
        + "\n"
      prose = []
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      // A heading is in capitals (`EXAMPLES:`): prose may end a line with a colon too.
      if line.isEmpty || line.hasPrefix(" ") || line.hasSuffix(":") && line == line.uppercased() {
        flush()
        // An example is never broken: a command cut in two could not be pasted.
        out += line + "\n"
      } else {
        prose.append(line)
      }
    }
    flush()
    return out
  }

  /// `label` then `help` in a column starting at `column`, wrapped to `width`; a label too wide
  /// for the column puts the help on the next line.
  private static func row(_ label: String, _ help: String, column: Int, width: Int) -> String {
    let lines = TextWrapper.wrap(help, width: max(width - column, 20))
    let indent = String(repeating: " ", count: column)
    var text = label.count + 2 > column ? label + "\n" + indent : label.padding(to: column)
    text += lines.joined(separator: "\n" + indent) + "\n"
    return text
  }

  /// A line of prose wrapped to `width`, its continuation lines keeping its indentation.
  private static func paragraph(_ line: String, width: Int) -> String {
    let indent = String(line.prefix { $0 == " " })
    guard line.count > width else { return line + "\n" }
    let lines = TextWrapper.wrap(String(line.dropFirst(indent.count)), width: width - indent.count)
    return lines.map { indent + $0 }.joined(separator: "\n") + "\n"
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
