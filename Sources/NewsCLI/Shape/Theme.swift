import FeedParsing
import Foundation
import NewsCore

/// How each element of `news browse` is drawn: a built-in theme (`default`, `dark`, `light`,
/// `mono`) or `<config dir>/themes/<name>.json`, with `"colors"` of `config.json` over it.
struct Theme: Equatable, Sendable {
  /// The parts of the screen a style applies to.
  enum Element: String, CaseIterable, Sendable {
    case header, footer, selection, unread, read, bookmarked, source, date, tag, title, link
    case quote, error, warning, progress
  }

  /// The name it was chosen by.
  var name: String
  var styles: [Element: TextStyle]

  /// The style of `element` (plain where the theme says nothing).
  subscript(element: Element) -> TextStyle { styles[element] ?? .plain }

  static let builtInNames = ["default", "dark", "light", "mono"]

  /// Today's look: bold, dim and reverse only.
  static let standard = Theme(
    name: "default",
    styles: [
      .header: TextStyle(reverse: true), .selection: TextStyle(reverse: true),
      .unread: TextStyle(bold: true), .source: TextStyle(dim: true), .date: TextStyle(dim: true),
      .title: TextStyle(bold: true), .footer: TextStyle(dim: true),
      .warning: TextStyle(bold: true),
    ])

  static func builtIn(_ name: String) -> Theme? {
    func color(_ name: String) -> TerminalColor? { TerminalColor(name: name) }
    switch name {
    case "default":
      return standard
    case "dark":
      return Theme(
        name: name,
        styles: [
          .header: TextStyle(foreground: color("black"), background: color("cyan")),
          .selection: TextStyle(foreground: color("bright-white"), background: .indexed(24)),
          .unread: TextStyle(foreground: color("bright-white"), bold: true),
          .read: TextStyle(foreground: .indexed(250)),
          .bookmarked: TextStyle(foreground: color("yellow")),
          .source: TextStyle(foreground: color("cyan")),
          .date: TextStyle(foreground: .indexed(244)),
          .tag: TextStyle(foreground: color("magenta")),
          .title: TextStyle(foreground: color("bright-yellow"), bold: true),
          .link: TextStyle(foreground: color("bright-blue"), underline: true),
          .quote: TextStyle(foreground: color("green"), italic: true),
          .error: TextStyle(foreground: color("bright-red"), bold: true),
          .warning: TextStyle(foreground: color("yellow"), bold: true),
          .progress: TextStyle(foreground: color("cyan")),
          .footer: TextStyle(foreground: .indexed(244)),
        ])
    case "light":
      return Theme(
        name: name,
        styles: [
          .header: TextStyle(foreground: color("bright-white"), background: color("blue")),
          .selection: TextStyle(foreground: color("black"), background: .indexed(153)),
          .unread: TextStyle(foreground: color("black"), bold: true),
          .read: TextStyle(foreground: .indexed(240)),
          .bookmarked: TextStyle(foreground: color("magenta")),
          .source: TextStyle(foreground: color("blue")),
          .date: TextStyle(foreground: .indexed(242)),
          .tag: TextStyle(foreground: color("magenta")),
          .title: TextStyle(foreground: color("blue"), bold: true),
          .link: TextStyle(foreground: color("blue"), underline: true),
          .quote: TextStyle(foreground: .indexed(22), italic: true),
          .error: TextStyle(foreground: color("red"), bold: true),
          .warning: TextStyle(foreground: .indexed(130), bold: true),
          .progress: TextStyle(foreground: color("blue")),
          .footer: TextStyle(foreground: .indexed(242)),
        ])
    case "mono":
      return Theme(
        name: name,
        styles: [
          .header: TextStyle(bold: true, reverse: true), .selection: TextStyle(reverse: true),
          .unread: TextStyle(bold: true), .title: TextStyle(bold: true),
          .link: TextStyle(underline: true), .quote: TextStyle(italic: true),
          .error: TextStyle(bold: true), .warning: TextStyle(bold: true),
        ])
    default:
      return nil
    }
  }

  /// The theme `name` with `colors` over it. A name that is not built in is read from
  /// `themesDirectory/<name>.json` (`{"base": "dark", "colors": {…}}`). Errors name `file`'s
  /// field, or the theme file.
  static func load(
    name: String?, colors: ConfigNode?, themesDirectory: String, file: String
  ) throws(ConfigurationError) -> Theme {
    var theme = standard
    if let name {
      if let builtIn = builtIn(name) {
        theme = builtIn
      } else {
        theme = try fromFile(name, directory: themesDirectory, configFile: file)
      }
    }
    if let colors {
      let overrides = try styles(colors)
      for (element, style) in overrides { theme.styles[element] = style.over(theme[element]) }
    }
    return theme
  }

  /// A theme of the user's: `<directory>/<name>.json`.
  private static func fromFile(_ name: String, directory: String, configFile: String)
    throws(ConfigurationError) -> Theme
  {
    let valid = !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || "-_".contains($0) }
    let path = directory + "/" + name + ".json"
    guard valid, let data = FileManager.default.contents(atPath: path) else {
      let suggestion = EditDistance.closest(to: name, in: builtInNames)
      throw .invalidConfigFile(
        file: configFile, source: nil, field: "theme",
        problem:
          "names '\(name)', which is neither built in (\(builtInNames.joined(separator: ", "))) "
          + "nor a file \(path)" + (suggestion.map { " (did you mean \($0)?)" } ?? ""))
    }
    let object: ConfigNode
    do {
      object = try ConfigNode.parse(data, file: path)
      try object.requireObject("")
    } catch {
      throw .invalidConfigFile(
        file: path, source: nil, field: ConfigNode.topLevel,
        problem: "must be a JSON object: {\"base\": \"dark\", \"colors\": {…}}")
    }
    try object.refuseOthers(than: ["base", "colors"], "is not understood (base and colors are)")
    var theme = standard
    if let base = object["base"] {
      guard let baseName = base.text, let builtIn = builtIn(baseName) else {
        throw base.fail("must name a built-in theme (\(builtInNames.joined(separator: ", ")))")
      }
      theme = builtIn
    }
    theme.name = name
    if let colors = object["colors"] {
      for (element, style) in try styles(colors) {
        theme.styles[element] = style.over(theme[element])
      }
    }
    return theme
  }

  /// `{"header": {"fg": …}, …}`, every element and field checked.
  static func styles(_ node: ConfigNode) throws(ConfigurationError) -> [Element: TextStyle] {
    var result: [Element: TextStyle] = [:]
    let members = try node.members("must be an object of elements (header, selection, unread, …)")
    for (name, style) in members {
      guard let element = Element(rawValue: name) else {
        let suggestion = EditDistance.closest(to: name, in: Element.allCases.map(\.rawValue))
        throw style.fail(
          "is not an element"
            + (suggestion.map { " (did you mean \($0)?)" } ?? "") + ": "
            + Element.allCases.map(\.rawValue).joined(separator: ", "))
      }
      try style.refuseOthers(
        than: TextStyle.fields,
        "is not understood (\(TextStyle.fields.joined(separator: ", ")) are)")
      result[element] = try TextStyle.parse(style)
    }
    return result
  }
}
