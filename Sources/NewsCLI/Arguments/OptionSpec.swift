/// An option a command accepts, declared once and used by the parser, the help text and (later)
/// completions, so that they cannot drift apart.
public struct OptionSpec: Sendable, Equatable {
  /// The long name without dashes (`page-size`).
  public var name: String
  /// The one-letter short name, if any (`q` for `-q`).
  public var short: Character?
  /// The placeholder for its value (`<n>`), or `nil` for a flag.
  public var valueName: String?
  /// One line of help.
  public var help: String
  /// The values it accepts, when there is a fixed set (offered by shell completions).
  public var choices: [String] = []

  /// A flag: present or not.
  public static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
    OptionSpec(name: name, short: short, valueName: nil, help: help)
  }

  /// An option that takes a value, optionally one of `choices`.
  public static func value(
    _ name: String, short: Character? = nil, _ valueName: String, help: String,
    choices: [String] = []
  ) -> OptionSpec {
    OptionSpec(name: name, short: short, valueName: valueName, help: help, choices: choices)
  }

  /// Whether the option takes a value.
  public var takesValue: Bool { valueName != nil }
}
