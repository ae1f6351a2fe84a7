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

/// A positional argument.
public struct ArgumentSpec: Sendable, Equatable {
  /// Its placeholder in usage (`id`).
  public var name: String
  /// One line of help.
  public var help: String
  /// Whether it must be given.
  public var required: Bool
  /// Whether it may be repeated.
  public var repeating: Bool
  /// The values it accepts, when there is a fixed set.
  public var choices: [String]

  /// Creates an argument.
  public init(
    name: String, help: String, required: Bool = true, repeating: Bool = false,
    choices: [String] = []
  ) {
    self.name = name
    self.help = help
    self.required = required
    self.repeating = repeating
    self.choices = choices
  }
}

/// A subcommand: its name, what it does, and what it accepts.
public struct CommandSpec: Sendable, Equatable {
  /// The word after `news`.
  public var name: String
  /// One line for `news --help`.
  public var abstract: String
  /// A few lines for `news help <command>`, with examples.
  public var discussion: String
  /// Options, in the order help lists them (`--help` is added by the parser).
  public var options: [OptionSpec]
  /// Positional arguments.
  public var arguments: [ArgumentSpec]

  /// Creates a command.
  public init(
    name: String, abstract: String, discussion: String = "", options: [OptionSpec] = [],
    arguments: [ArgumentSpec] = []
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.options = options
    self.arguments = arguments
  }

  /// The options with the implicit `--help`.
  public var allOptions: [OptionSpec] {
    options + [.flag("help", short: "h", help: "Show help for this command.")]
  }
}
