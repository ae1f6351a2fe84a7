import NewsCore

/// `news manual`: a roff man page generated from the same specs as `--help`.
enum ManualPage {
  static func render(_ commands: [CommandSpec]) -> String {
    var page = """
      .TH NEWS 1 "" "news \(NewsVersion.current)" "User Commands"
      .SH NAME
      news \\- the news, in your shell
      .SH SYNOPSIS
      .B news
      .I command
      .RI [ options ]
      .br
      .B news
      .RB [ \\-\\-help | \\-\\-version ]
      .SH DESCRIPTION
      A command-line news reader: newsapi.org top headlines and search, an articles API, BBC-style
      headlines and a feed of several sources, kept in an encrypted local store for offline reading.
      Every command prints text for people and, with \\fB\\-\\-json\\fR, a stable JSON document.
      .SH COMMANDS

      """
    for command in commands.flatMap({ [$0] + $0.subcommands }) {
      page += ".SS \"\(escape(HelpFormatter.usage(command)))\"\n\(escape(command.abstract))\n"
      for argument in command.arguments {
        page += ".TP\n.I <\(escape(argument.name))>\n\(escape(argument.help))\n"
      }
      for option in command.allOptions {
        var label = option.short.map { "\\fB\\-\($0)\\fR, " } ?? ""
        label += "\\fB\\-\\-\(escape(option.name))\\fR"
        if let valueName = option.valueName { label += " \\fI\(escape(valueName))\\fR" }
        page += ".TP\n\(label)\n\(escape(option.help))\n"
      }
      if !command.discussion.isEmpty {
        page += ".PP\n.nf\n\(escape(command.discussion))\n.fi\n"
      }
    }
    page +=
      ".SH ENVIRONMENT\nValues come from the environment, then a .env file in the current directory.\n"
    for variable in Configuration.variables {
      page += ".TP\n.B \(escape(variable.name))\n\(escape(variable.meaning))\n"
    }
    page += """
      .SH FILES
      With NEWS_HOME set, everything is in that directory. Otherwise the key is in
      \\fI$XDG_CONFIG_HOME/news/key\\fR (\\fI~/.config/news\\fR), stored articles in
      \\fI$XDG_DATA_HOME/news\\fR (\\fI~/.local/share/news\\fR) and the feed cache in
      \\fI$XDG_CACHE_HOME/news\\fR (\\fI~/.cache/news\\fR). Every file is encrypted with
      ChaCha20\\-Poly1305.
      .SH EXIT STATUS

      """
    for code in ExitCode.all {
      page += ".TP\n.B \(code.rawValue)\n\(escape(code.meaning))\n"
    }
    page += ".SH SEE ALSO\n\\fBjq\\fR(1), \\fBcrontab\\fR(5)\n"
    return page
  }

  /// Escapes text for roff: backslashes, hyphens, and a leading dot or quote.
  static func escape(_ text: String) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      var escaped = line.replacingOccurrences(of: "\\", with: "\\e")
        .replacingOccurrences(of: "-", with: "\\-")
      if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
      // Non-ASCII characters as roff glyph names, so any troff renders them.
      var ascii = ""
      for scalar in escaped.unicodeScalars {
        if scalar.isASCII {
          ascii.unicodeScalars.append(scalar)
        } else {
          ascii += "\\[u" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4) + "]"
        }
      }
      return ascii
    }
    return lines.joined(separator: "\n")
  }
}
