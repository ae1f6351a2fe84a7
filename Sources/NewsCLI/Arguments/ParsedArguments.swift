import Foundation
import NewsCore

/// What the parser read for one command.
public struct ParsedArguments: Sendable, Equatable {
  /// The command's spec.
  public var command: CommandSpec
  /// Values of options that take one, by long name (the last occurrence wins).
  public var values: [String: String] = [:]
  /// Flags that were given, by long name.
  public var flags: Set<String> = []
  /// Positional arguments in order.
  public var positionals: [String] = []

  /// Whether `flag` was given.
  public func has(_ flag: String) -> Bool { flags.contains(flag) }

  /// The value of `option`, if given.
  public func value(_ option: String) -> String? { values[option] }

  /// The value of `option` as a whole number within `range`, or a usage error saying so.
  public func int(_ option: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
    guard let text = values[option] else { return nil }
    guard let number = Int(text), range.contains(number) else {
      let bounds =
        range.upperBound == Int.max
        ? "\(range.lowerBound) or more" : "from \(range.lowerBound) to \(range.upperBound)"
      throw UsageError(
        command: command.name,
        message: "--\(option) expects a whole number \(bounds), got '\(text)'")
    }
    return number
  }

  /// The value of `option` split at commas, without empty parts.
  public func list(_ option: String) -> [String] {
    (values[option] ?? "").split(separator: ",").map {
      String($0.trimmingCharacters(in: .whitespaces))
    }.filter { !$0.isEmpty }
  }
}

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
