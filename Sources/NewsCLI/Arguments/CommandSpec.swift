/// A subcommand: its name, what it does, and what it accepts.
public struct CommandSpec: Sendable, Equatable {
  /// The words after `news`: `feed`, or `sources add` for a subcommand.
  public var name: String
  /// One line for `news --help`.
  public var abstract: String
  /// A few lines for `news help <command>`, with examples.
  public var discussion: String
  /// Options, in the order help lists them (`--help` is added by the parser).
  public var options: [OptionSpec]
  /// Positional arguments.
  public var arguments: [ArgumentSpec]
  /// The actions it takes as nested commands (`news sources add`), each with its own options
  /// and arguments; the command itself runs when none is named.
  public var subcommands: [CommandSpec]

  /// Creates a command.
  public init(
    name: String, abstract: String, discussion: String = "", options: [OptionSpec] = [],
    arguments: [ArgumentSpec] = [], subcommands: [CommandSpec] = []
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.options = options
    self.arguments = arguments
    self.subcommands = subcommands
  }

  /// The word that names it on the command line: `add` for `sources add`.
  public var word: String {
    name.split(separator: " ").last.map(String.init) ?? name
  }

  /// What completion offers after the command's name: its options and its subcommands', once
  /// each.
  var completionOptions: [OptionSpec] {
    var seen = Set<String>()
    return (allOptions + subcommands.flatMap(\.options)).filter { seen.insert($0.name).inserted }
  }

  /// The options with the implicit `--help`.
  public var allOptions: [OptionSpec] {
    options + [Options.help.spec]
  }
}
