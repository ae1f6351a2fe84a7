import Foundation
import NewsCore

/// What makes `news browse` the reader's own, from `config.json`: `"keys"`, `"commands"`,
/// `"theme"`, `"colors"` and `"highlight"`, read and checked when the configuration is (every
/// mistake is exit 78 before any request or screen, for every command).
struct ReaderShape: Equatable, Sendable {
  var keys = KeyMap()
  var commands: [String: ArticleCommand] = [:]
  var theme = Theme.standard
  var highlights: [HighlightRule] = []

  /// The sections `config.json` may hold beside sources and hooks.
  static let sections = ["keys", "commands", "theme", "colors", "highlight"]

  init() {}

  /// Reads the sections of `file`; `nil` (no `config.json`) is the defaults. A highlight's
  /// query means the days of `timeZone`.
  init(_ file: FeedConfigFile?, timeZone: TimeZone) throws(ConfigurationError) {
    guard let file else { return }
    let object: [String: Any]
    do {
      object = try JSONSerialization.jsonObject(with: file.json) as? [String: Any] ?? [:]
    } catch {
      // FeedConfigFile refuses what this reader cannot read: never reached, and never a file
      // half read if it is.
      throw .invalidConfigFile(
        file: file.path, source: nil, field: "(top level)", problem: "is not valid JSON")
    }
    commands = try ArticleCommand.parse(object["commands"], file: file.path)
    let themeName: String?
    if let value = object["theme"] {
      guard let name = value as? String else {
        throw .invalidConfigFile(
          file: file.path, source: nil, field: "theme",
          problem: "must be a theme's name (\(Theme.builtInNames.joined(separator: ", ")), or a "
            + "file's in themes/)")
      }
      themeName = name
    } else {
      themeName = nil
    }
    let directory = (file.path as NSString).deletingLastPathComponent + "/themes"
    theme = try Theme.load(
      name: themeName, colors: object["colors"], themesDirectory: directory, file: file.path)
    highlights = try HighlightRule.parse(
      object["highlight"], file: file.path, timeZone: timeZone)
    keys = try KeyMap(
      object["keys"], commands: Set(commands.keys), savedSearches: Set(file.savedSearches),
      file: file.path)
  }
}
