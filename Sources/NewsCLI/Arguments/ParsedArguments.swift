import Foundation
import NewsCore

/// What the parser read for one command, every value already checked against its option's kind.
public struct ParsedArguments: Sendable, Equatable {
  /// The command's spec.
  public var command: CommandSpec
  /// Values of options that take one, by long name (the last occurrence wins).
  var values: [String: String] = [:]
  /// Flags that were given, by long name.
  var flags: Set<String> = []
  /// Positional arguments in order.
  public var positionals: [String] = []

  /// Whether `flag` was given.
  public subscript(_ flag: Flag) -> Bool { flags.contains(flag.spec.name) }

  /// The value of `option`, typed, if it was given.
  public subscript<Value>(_ option: OptionKey<Value>) -> Value? {
    values[option.spec.name].flatMap(option.convert)
  }

  /// Whether an option called `name` was given (flag or value).
  public func contains(_ spec: OptionSpec) -> Bool {
    flags.contains(spec.name) || values[spec.name] != nil
  }
}
