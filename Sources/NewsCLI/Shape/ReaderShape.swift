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

  /// The sections of `config.json` this reads, registered beside NewsCore's when the file is
  /// loaded (``ConfigSections``).
  static let sections = ["keys", "commands", "theme", "colors", "highlight"]

  init() {}

  /// Reads the sections of `file`; `nil` (no `config.json`) is the defaults. A highlight's
  /// query means the days of `timeZone`.
  init(_ file: FeedConfigFile?, timeZone: TimeZone) throws(ConfigurationError) {
    guard let file else { return }
    let root = file.root
    commands = try ArticleCommand.parse(root["commands"])
    var themeName: String?
    if let value = root["theme"] {
      themeName = try value.string(
        "must be a theme's name (\(Theme.builtInNames.joined(separator: ", ")), or a file's in "
          + "themes/)")
    }
    let directory = (file.path as NSString).deletingLastPathComponent + "/themes"
    theme = try Theme.load(
      name: themeName, colors: root["colors"], themesDirectory: directory, file: file.path)
    highlights = try HighlightRule.parse(root["highlight"], timeZone: timeZone)
    keys = try KeyMap(
      root["keys"], commands: Set(commands.keys), savedSearches: Set(file.savedSearches))
  }
}
