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
