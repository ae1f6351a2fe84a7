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

  init(
    spec: CommandSpec, usesNetwork: @escaping @Sendable (ParsedArguments) -> Bool = { _ in false },
    validate: @escaping @Sendable (ParsedArguments, Context) throws -> Void = { _, _ in },
    run: @escaping @Sendable (ParsedArguments, Context) async throws -> ExitCode
  ) {
    self.spec = spec
    self.validate = validate
    self.usesNetwork = usesNetwork
    self.run = run
  }
}
