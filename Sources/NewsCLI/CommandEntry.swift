import Foundation
import NewsCore

/// A subcommand: its spec, what it checks and what it does.
struct CommandEntry: Sendable {
  var spec: CommandSpec
  /// Checks the arguments before anything runs (as swift-argument-parser's `validate()`):
  /// options that contradict each other, options that need another, unknown sources. Throws a
  /// ``UsageError`` (exit 64); nothing is fetched, read or written before it passes.
  var validate: @Sendable (ParsedArguments, Context) throws -> Void
  /// Whether the command, with these arguments, may use the network. Analytics are only sent
  /// then: `--offline`, bookmarks and offline search make no request at all.
  var usesNetwork: @Sendable (ParsedArguments) -> Bool
  var run: @Sendable (ParsedArguments, Context) async throws -> ExitCode
  /// Its actions as commands of their own (`news sources add`); `spec.subcommands` are their
  /// specs.
  var subcommands: [CommandEntry]

  init(
    spec: CommandSpec, subcommands: [CommandEntry] = [],
    usesNetwork: @escaping @Sendable (ParsedArguments) -> Bool = { _ in false },
    validate: @escaping @Sendable (ParsedArguments, Context) throws -> Void = { _, _ in },
    run: @escaping @Sendable (ParsedArguments, Context) async throws -> ExitCode
  ) {
    var spec = spec
    spec.subcommands = subcommands.map(\.spec)
    self.spec = spec
    self.subcommands = subcommands
    self.validate = validate
    self.usesNetwork = usesNetwork
    self.run = run
  }
}

extension CommandEntry {
  /// The command `words` name from here (`["add"]` from `sources`), and the words left after
  /// it; a word that names no subcommand is left for the parser.
  func resolve(_ words: ArraySlice<String>) -> (entry: CommandEntry, rest: ArraySlice<String>) {
    guard let word = words.first, let next = subcommands.first(where: { $0.spec.word == word })
    else { return (self, words) }
    return next.resolve(words.dropFirst())
  }
}
