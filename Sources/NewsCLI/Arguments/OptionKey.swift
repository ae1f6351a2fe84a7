import FeedParsing
import Foundation

/// A flag, declared once: commands read it as `arguments[Options.offline]`.
public struct Flag: Sendable {
  /// What the parser, help and completions know of it.
  public let spec: OptionSpec

  /// A flag called `--name` (and `-short`).
  public init(_ name: String, short: Character? = nil, help: String) {
    spec = .flag(name, short: short, help: help)
  }
}

/// An option with a value of type `Value`, declared once with its name, placeholder, accepted
/// values and help. The parser checks the value; commands read it typed, as
/// `arguments[Options.pageSize]`.
public struct OptionKey<Value: Sendable>: Sendable {
  /// What the parser, help and completions know of it.
  public let spec: OptionSpec
  let convert: @Sendable (String) -> Value?

  init(
    _ name: String, short: Character?, _ valueName: String, help: String, kind: ValueKind,
    convert: @escaping @Sendable (String) -> Value?
  ) {
    spec = OptionSpec(name: name, short: short, valueName: valueName, help: help, kind: kind)
    self.convert = convert
  }

  private init(spec: OptionSpec, convert: @escaping @Sendable (String) -> Value?) {
    self.spec = spec
    self.convert = convert
  }

  /// The same option, its value completed from `names`.
  public func completing(_ names: CompletedNames) -> OptionKey {
    var spec = self.spec
    spec.completes = names
    return OptionKey(spec: spec, convert: convert)
  }
}

extension OptionKey where Value == String {
  /// Any text.
  public static func text(
    _ name: String, short: Character? = nil, _ valueName: String, help: String
  ) -> OptionKey {
    OptionKey(name, short: short, valueName, help: help, kind: .text) { $0 }
  }

  /// One of `choices`.
  public static func choice(
    _ name: String, _ valueName: String, choices: [String], help: String
  ) -> OptionKey {
    OptionKey(name, short: nil, valueName, help: help, kind: .choice(choices)) { $0 }
  }
}

extension OptionKey where Value == Int {
  /// A whole number within `range`.
  public static func integer(
    _ name: String, _ valueName: String = "<n>", in range: ClosedRange<Int>, help: String
  ) -> OptionKey {
    OptionKey(name, short: nil, valueName, help: help, kind: .integer(range)) { Int($0) }
  }

  /// Whole seconds within `range`: `900`, or a number and a unit (`30m`, `2h`, `1d`).
  public static func duration(
    _ name: String, _ valueName: String = "<time>", in range: ClosedRange<Int>, help: String
  ) -> OptionKey {
    OptionKey(name, short: nil, valueName, help: help, kind: .duration(range)) {
      DurationText.wholeSeconds($0, in: range)
    }
  }
}

extension OptionKey where Value == [String] {
  /// Comma-separated values (empty parts dropped), each one of `choices` when given.
  public static func list(
    _ name: String, _ valueName: String, of choices: [String]? = nil, help: String
  ) -> OptionKey {
    OptionKey(
      name, short: nil, valueName, help: help, kind: choices.map(ValueKind.listOf) ?? .list
    ) { OptionKey.split($0) }
  }

  static func split(_ text: String) -> [String] {
    text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
      !$0.isEmpty
    }
  }
}
