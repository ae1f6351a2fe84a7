/// An option a command accepts, declared once and used by the parser, the help text, the
/// completions and the manual, so that they cannot drift apart.
public struct OptionSpec: Sendable, Equatable {
  /// The long name without dashes (`page-size`).
  public var name: String
  /// The one-letter short name, if any (`q` for `-q`).
  public var short: Character?
  /// The placeholder for its value (`<n>`), or `nil` for a flag.
  public var valueName: String?
  /// One line of help.
  public var help: String
  /// What its value may be; the parser checks it.
  public var kind: ValueKind
  /// The names its value is one of (or a comma-separated list of), which completions ask for.
  public var completes: CompletedNames?

  /// Creates an option.
  public init(
    name: String, short: Character?, valueName: String?, help: String, kind: ValueKind,
    completes: CompletedNames? = nil
  ) {
    self.name = name
    self.short = short
    self.valueName = valueName
    self.help = help
    self.kind = kind
    self.completes = completes
  }

  /// A flag: present or not.
  public static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
    OptionSpec(name: name, short: short, valueName: nil, help: help, kind: .flag)
  }

  /// Whether the option takes a value.
  public var takesValue: Bool { valueName != nil }

  /// The values it accepts, when there is a fixed set (offered by shell completions).
  public var choices: [String] {
    switch kind {
    case .choice(let choices), .listOf(let choices): return choices
    default: return []
    }
  }
}
