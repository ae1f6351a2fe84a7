/// Terminal text styles: none in pipes, with `NO_COLOR`, or on a `TERM=dumb` terminal.
struct Style: Sendable {
  /// Whether escape sequences are written at all.
  var enabled: Bool
  /// Whether the terminal shows 24-bit colour (`COLORTERM=truecolor` or `24bit`).
  var truecolor = false
  /// Whether the terminal says it has a light background (`COLORFGBG`).
  var lightBackground = false

  /// Styles for a stream that is (or is not) a terminal, from the terminal's variables.
  init(terminal: Bool, noColor: Bool, environment: [String: String]) {
    let term = environment["TERM"] ?? ""
    enabled = terminal && !noColor && term != "dumb"
    let colorTerm = environment["COLORTERM"]?.lowercased() ?? ""
    truecolor = colorTerm == "truecolor" || colorTerm == "24bit"
    // COLORFGBG is "foreground;background" with the 16 ANSI colours; 7 and 9–15 are light.
    if let background = environment["COLORFGBG"]?.split(separator: ";").last.flatMap({ Int($0) }) {
      lightBackground = background == 7 || (9...15).contains(background)
    }
  }

  /// Styles switched on or off as a whole (tests).
  init(enabled: Bool) {
    self.enabled = enabled
  }

  func bold(_ text: String) -> String { wrap(text, "1") }
  func dim(_ text: String) -> String { wrap(text, "2") }
  func red(_ text: String) -> String { wrap(text, "31") }
  func yellow(_ text: String) -> String { wrap(text, "33") }
  func cyan(_ text: String) -> String { wrap(text, "36") }

  /// The design's light grey (0x3d3d3d) where it can be shown and read: in 24-bit colour on a
  /// light background. Elsewhere dim, which every terminal shows readably on dark themes too.
  func grey(_ text: String) -> String {
    truecolor && lightBackground ? wrap(text, "38;2;61;61;61") : dim(text)
  }

  private func wrap(_ text: String, _ code: String) -> String {
    enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}
