/// Shell completion scripts, generated from the same specs the parser reads, so they cannot drift.
enum CompletionScript {
  /// The shells there are scripts for.
  static let shells = ["bash", "zsh", "fish"]

  static func script(for shell: String, commands: [CommandSpec]) -> String? {
    switch shell {
    case "bash": return bash(commands)
    case "zsh": return zsh(commands)
    case "fish": return fish(commands)
    default: return nil
    }
  }

  /// Completions of a command's positional arguments: command names for `help`, subcommands,
  /// fixed choices.
  private static func argumentWords(_ command: CommandSpec, all: [CommandSpec]) -> [String] {
    command.name == "help"
      ? all.map(\.name)
      : command.subcommands.map(\.word) + command.arguments.flatMap(\.choices)
  }

  /// The command a script runs for `names`, its errors silenced (a Tab never prints one).
  static func listing(_ names: CompletedNames) -> String {
    "news completion --list \(names.rawValue) 2>/dev/null"
  }

  /// The subcommands (their last word) whose first argument is one of `names`, by command.
  private static func subcommands(of command: CommandSpec, completing names: CompletedNames)
    -> [String]
  {
    command.subcommands.filter { $0.arguments.first?.completes == names }.map(\.word)
  }

  static func bash(_ commands: [CommandSpec]) -> String {
    var text = """
      # bash completion for news. Install: news completion bash > /etc/bash_completion.d/news
      # (or source it from ~/.bashrc).
      _news() {
        local cur prev
        cur="${COMP_WORDS[COMP_CWORD]}"
        prev="${COMP_WORDS[COMP_CWORD-1]}"
        if [[ $COMP_CWORD -eq 1 ]]; then
          COMPREPLY=($(compgen -W "\(commands.map(\.name).joined(separator: " ")) --help --version" -- "$cur"))
          return
        fi
        case "${COMP_WORDS[1]}" in

      """
    for command in commands {
      let options = command.completionOptions
      text += "    \(command.name))\n      case \"$prev\" in\n"
      for option in options where option.takesValue {
        let names = (["--" + option.name] + (option.short.map { ["-\($0)"] } ?? []))
          .joined(separator: "|")
        let words =
          option.completes.map { "$(\(listing($0)))" } ?? option.choices.joined(separator: " ")
        text +=
          words.isEmpty
          ? "        \(names)) return ;;\n"
          : "        \(names)) COMPREPLY=($(compgen -W \"\(words)\" -- \"$cur\")); return ;;\n"
      }
      let words =
        options.map { "--" + $0.name } + argumentWords(command, all: commands)
      text += "      esac\n"
      for names in CompletedNames.allCases {
        let named = subcommands(of: command, completing: names)
        guard !named.isEmpty else { continue }
        let test = named.map { "${COMP_WORDS[2]} == \($0)" }.joined(separator: " || ")
        text += "      if [[ $COMP_CWORD -eq 3 && $cur != -* ]] && [[ \(test) ]]; then\n"
        text += "        COMPREPLY=($(compgen -W \"$(\(listing(names)))\" -- \"$cur\")); return\n"
        text += "      fi\n"
      }
      text += "      COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")) ;;\n"
    }
    text += "  esac\n}\ncomplete -F _news news\n"
    return text
  }

  static func zsh(_ commands: [CommandSpec]) -> String {
    func escape(_ text: String) -> String {
      text.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: "[", with: "\\[")
        .replacingOccurrences(of: "]", with: "\\]").replacingOccurrences(of: ":", with: "\\:")
    }
    var text = """
      #compdef news
      # zsh completion for news. Install: news completion zsh > "${fpath[1]}/_news"

      _news() {
        local -a commands
        commands=(

      """
    for command in commands {
      text += "    '\(command.name):\(escape(command.abstract))'\n"
    }
    text += """
        )
        if (( CURRENT == 2 )); then
          _describe 'command' commands
          return
        fi
        case $words[2] in

      """
    for command in commands {
      text += "    \(command.name))\n      _arguments -s \\\n"
      for option in command.completionOptions {
        var value = ""
        if let valueName = option.valueName {
          let action =
            option.completes.map { #"{compadd -- ${(f)"$("# + listing($0) + #")"}}"# }
            ?? (option.choices.isEmpty ? "" : "(\(option.choices.joined(separator: " ")))")
          value = ":\(escape(valueName)):\(action)"
        }
        let description = "[\(escape(option.help))]\(value)'"
        if let short = option.short {
          text +=
            "        '(-\(short) --\(option.name))'{-\(short),--\(option.name)}'\(description) \\\n"
        } else {
          text += "        '--\(option.name)\(description) \\\n"
        }
      }
      let words = argumentWords(command, all: commands)
      // After a subcommand whose argument is a name (`sources set`): the names; else the words.
      var action = words.isEmpty ? "" : "compadd -- \(words.joined(separator: " "))"
      for names in CompletedNames.allCases {
        let named = subcommands(of: command, completing: names)
        guard !named.isEmpty else { continue }
        action =
          "if (( CURRENT == 4 )) && [[ $words[3] == (\(named.joined(separator: "|"))) ]]; then"
          + #" compadd -- ${(f)"$("# + listing(names) + #")"}; else "# + action + "; fi"
      }
      text +=
        action.isEmpty
        ? "        '*:argument:'\n      ;;\n" : "        '*:argument:{\(action)}'\n      ;;\n"
    }
    text += "  esac\n}\n\n_news \"$@\"\n"
    return text
  }

  static func fish(_ commands: [CommandSpec]) -> String {
    func escape(_ text: String) -> String { text.replacingOccurrences(of: "'", with: "\\'") }
    var text = """
      # fish completion for news. Install: news completion fish > ~/.config/fish/completions/news.fish
      complete -c news -f
      complete -c news -n __fish_use_subcommand -l help -s h -d 'Show help information.'
      complete -c news -n __fish_use_subcommand -l version -d 'Show the version.'

      """
    for command in commands {
      text +=
        "complete -c news -n __fish_use_subcommand -a \(command.name) -d '\(escape(command.abstract))'\n"
    }
    for command in commands {
      let condition = "'__fish_seen_subcommand_from \(command.name)'"
      for option in command.completionOptions {
        var line = "complete -c news -n \(condition)"
        if let short = option.short { line += " -s \(short)" }
        line += " -l \(option.name)"
        // A value of names or choices is one of them (-x: no file offered); another, anything.
        if option.takesValue {
          line += option.completes != nil || !option.choices.isEmpty ? " -x" : " -r"
        }
        if let names = option.completes {
          line += " -a '(\(listing(names)))'"
        } else if !option.choices.isEmpty {
          line += " -a '\(option.choices.joined(separator: " "))'"
        }
        text += line + " -d '\(escape(option.help))'\n"
      }
      let words = argumentWords(command, all: commands)
      if !words.isEmpty {
        text += "complete -c news -n \(condition) -a '\(words.joined(separator: " "))'\n"
      }
      for names in CompletedNames.allCases {
        let named = subcommands(of: command, completing: names)
        guard !named.isEmpty else { continue }
        text +=
          "complete -c news -n '__fish_seen_subcommand_from \(command.name); and"
          + " __fish_seen_subcommand_from \(named.joined(separator: " "))' -a '(\(listing(names)))'\n"
      }
    }
    return text
  }
}
