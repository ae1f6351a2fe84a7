import Foundation
import NewsCore

/// The command line was wrong. Printed as one line, with a hint where one can be given.
public struct UsageError: NewsError, Equatable {
  /// The command being parsed, or `nil` at the top level.
  public var command: String?
  /// What is wrong.
  public var text: String
  /// A suggestion such as `did you mean '--page-size'?`.
  public var hint: String?

  /// Creates a usage error.
  public init(command: String?, message: String, hint: String? = nil) {
    self.command = command
    self.text = message
    self.hint = hint
  }

  public var message: String {
    let help = command.map { "news \($0) --help" } ?? "news --help"
    return text + (hint.map { "; \($0)" } ?? "") + " (see '\(help)')"
  }

  public var exitCode: ExitCode { .usage }
}
