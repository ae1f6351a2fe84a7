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

  /// The positional argument called `name`: given, since the parser checks required ones, or a
  /// usage error rather than a crash when a command asks for one it did not declare required.
  public func argument(_ name: String) throws(UsageError) -> String {
    guard let index = command.arguments.firstIndex(where: { $0.name == name }),
      index < positionals.count
    else { throw UsageError(command: command.name, message: "missing <\(name)>") }
    return positionals[index]
  }

  /// The positional argument called `name`, if it was given.
  public func optionalArgument(_ name: String) -> String? {
    guard let index = command.arguments.firstIndex(where: { $0.name == name }),
      index < positionals.count
    else { return nil }
    return positionals[index]
  }

  /// The whole-number argument called `name` (declared `.integer`, so the parser checked it).
  public func number(_ name: String) throws(UsageError) -> Int {
    let text = try argument(name)
    guard let number = Int(text) else {
      throw UsageError(command: command.name, message: "<\(name)> must be a whole number")
    }
    return number
  }
}
