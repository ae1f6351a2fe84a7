import FeedParsing
import NewsCore

/// How text is drawn: colours and attributes, each `nil` where it is left as it was (a theme's
/// element over the default look, `"colors"` over the theme, a highlight over a row).
struct TextStyle: Hashable, Sendable {
  var foreground: TerminalColor?
  var background: TerminalColor?
  var bold: Bool?
  var dim: Bool?
  var italic: Bool?
  var underline: Bool?
  var reverse: Bool?

  static let plain = TextStyle()

  init(
    foreground: TerminalColor? = nil, background: TerminalColor? = nil, bold: Bool? = nil,
    dim: Bool? = nil, italic: Bool? = nil, underline: Bool? = nil, reverse: Bool? = nil
  ) {
    self.foreground = foreground
    self.background = background
    self.bold = bold
    self.dim = dim
    self.italic = italic
    self.underline = underline
    self.reverse = reverse
  }

  /// This style with what `other` sets laid over it.
  func over(_ other: TextStyle) -> TextStyle {
    TextStyle(
      foreground: foreground ?? other.foreground, background: background ?? other.background,
      bold: bold ?? other.bold, dim: dim ?? other.dim, italic: italic ?? other.italic,
      underline: underline ?? other.underline, reverse: reverse ?? other.reverse)
  }

  /// `other` laid over this style.
  func with(_ other: TextStyle) -> TextStyle { other.over(self) }

  /// Nothing set (or only `false`s and the terminal's colours): drawn as plain text.
  var isPlain: Bool { resolved == .plain }

  /// Unset and `false` alike as `nil`, `default` colours as none: two styles draw alike when
  /// their resolved forms are equal.
  var resolved: TextStyle {
    func flag(_ value: Bool?) -> Bool? { value == true ? true : nil }
    func color(_ value: TerminalColor?) -> TerminalColor? {
      value == .terminalDefault ? nil : value
    }
    return TextStyle(
      foreground: color(foreground), background: color(background), bold: flag(bold),
      dim: flag(dim), italic: flag(italic), underline: flag(underline), reverse: flag(reverse))
  }

  /// The fields a style object may hold in `config.json`.
  static let fields = ["fg", "bg", "bold", "dim", "italic", "underline", "reverse"]

  /// Reads `{"fg": "red", "bold": true}`; a mistake names its field under `node`'s path. Other
  /// members are left to the caller (a highlight rule's own).
  static func parse(_ node: ConfigNode) throws(ConfigurationError) -> TextStyle {
    var style = TextStyle()
    for (key, item) in try node.members("must be an object (fg, bg, bold, …)") {
      switch key {
      case "fg", "bg":
        guard let color = TerminalColor(item) else {
          let suggestion = item.text.flatMap {
            EditDistance.closest(to: $0, in: TerminalColor.allNames)
          }
          throw item.fail(
            "is not a colour"
              + (suggestion.map { " (did you mean \($0)?)" }
                ?? ": a name (red, bright-blue), 0–255, #rrggbb or default"))
        }
        if key == "fg" { style.foreground = color } else { style.background = color }
      case "bold", "dim", "italic", "underline", "reverse":
        let flag = try item.bool()
        switch key {
        case "bold": style.bold = flag
        case "dim": style.dim = flag
        case "italic": style.italic = flag
        case "underline": style.underline = flag
        default: style.reverse = flag
        }
      default:
        continue
      }
    }
    return style
  }
}
