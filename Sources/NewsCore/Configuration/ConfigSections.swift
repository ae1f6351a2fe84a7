import FeedParsing

/// The top-level sections `config.json` may hold, each registered by the part of the program
/// that reads it: NewsCore's own (``core``), and the executable's, added when it loads the file
/// (``adding(_:)``). Any other section is refused, so a misspelt one (`"key"`) is never quietly
/// ignored; a name that starts with `_` or `$` (`"_comment"`, `"$schema"`) is the reader's own.
public struct ConfigSections: Sendable, Equatable {
  /// The sections' names, in the order they were registered.
  public private(set) var names: [String]

  /// The sections NewsCore reads: ``FeedConfigFile``'s sources, killfile and hooks.
  public static let core = ConfigSections(names: ["sources", "ignore", "hooks", "hookEnv"])

  /// These sections and `names`.
  public func adding(_ names: [String]) -> ConfigSections {
    ConfigSections(names: self.names + names.filter { !self.names.contains($0) })
  }

  /// Refuses a top-level member of `root` that is no registered section, with the closest name.
  func check(_ root: ConfigNode) throws(ConfigurationError) {
    for key in root.keys where !names.contains(key) && !key.hasPrefix("_") && !key.hasPrefix("$") {
      let suggestion = EditDistance.closest(to: key, in: names)
      let hint = suggestion.map { " (did you mean \($0)?)" } ?? ""
      let known = names.joined(separator: ", ")
      throw root.fail(
        at: key, "is not a section\(hint): \(known) (a name starting with _ is your own)")
    }
  }
}
