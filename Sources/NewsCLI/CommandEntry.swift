import Foundation
import NewsCore

/// A subcommand: its spec and what it does.
struct CommandEntry: Sendable {
  var spec: CommandSpec
  /// Whether the command, with these arguments, may use the network. Analytics are only sent
  /// then: `--offline`, bookmarks and offline search make no request at all.
  var usesNetwork: @Sendable (ParsedArguments) -> Bool
  var run: @Sendable (ParsedArguments, Context) async throws -> ExitCode

  init(
    spec: CommandSpec, usesNetwork: @escaping @Sendable (ParsedArguments) -> Bool = { _ in false },
    run: @escaping @Sendable (ParsedArguments, Context) async throws -> ExitCode
  ) {
    self.spec = spec
    self.usesNetwork = usesNetwork
    self.run = run
  }
}
