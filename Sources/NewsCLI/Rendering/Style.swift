/// Terminal text styles, switched off in pipes and when `NO_COLOR` is set.
struct Style: Sendable {
  /// Whether escape sequences are written at all.
  var enabled: Bool

  func bold(_ text: String) -> String { wrap(text, "1") }
  func dim(_ text: String) -> String { wrap(text, "2") }
  func red(_ text: String) -> String { wrap(text, "31") }
  func yellow(_ text: String) -> String { wrap(text, "33") }
  func cyan(_ text: String) -> String { wrap(text, "36") }
  /// The design's light grey (0x3d3d3d), in 24-bit colour.
  func grey(_ text: String) -> String { wrap(text, "38;2;61;61;61") }

  private func wrap(_ text: String, _ code: String) -> String {
    enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}
