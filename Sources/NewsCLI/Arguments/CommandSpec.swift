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
    options + [Options.help.spec]
  }
}
