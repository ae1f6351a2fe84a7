import FeedParsing
import Foundation

/// Reads a command's arguments the way swift-argument-parser users expect: long and short
/// options, `--opt value` and `--opt=value`, `-q value` and `-qvalue`, `--` ending the options.
enum ArgumentParser {
  /// Parses `arguments` (everything after the command name) against `command`; `family` (the
  /// parent and its other subcommands) names where an option that does not belong here applies.
  static func parse(
    _ arguments: [String], for command: CommandSpec, family: [CommandSpec] = []
  ) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments(command: command)
    let options = command.allOptions
    var index = 0
    func fail(_ message: String, hint: String? = nil) -> UsageError {
      UsageError(command: command.name, message: message, hint: hint)
    }
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "--" {
        parsed.positionals += arguments[index...]
        break
      }
      let spec: OptionSpec
      var inlineValue: String?
      if argument.hasPrefix("--") {
        var name = String(argument.dropFirst(2))
        if let equals = name.firstIndex(of: "=") {
          inlineValue = String(name[name.index(after: equals)...])
          name = String(name[..<equals])
        }
        guard let match = options.first(where: { $0.name == name }) else {
          let suggestion = EditDistance.closest(to: name, in: options.map(\.name))
          // `sources set --tag`: another command's option, and this one's `--tags` is meant.
          if let elsewhere = appliesElsewhere(name, family: family) {
            throw fail(elsewhere, hint: suggestion.map { "did you mean '--\($0)'?" })
          }
          throw fail(
            "unknown option '--\(name)' for 'news \(command.name)'",
            hint: suggestion.map { "did you mean '--\($0)'?" })
        }
        spec = match
      } else if argument.hasPrefix("-"), argument.count > 1, Int(argument) == nil {
        let letter = argument[argument.index(after: argument.startIndex)]
        guard let match = options.first(where: { $0.short == letter }) else {
          throw fail("unknown option '\(argument)' for 'news \(command.name)'")
        }
        spec = match
        let rest = argument.dropFirst(2)
        if !rest.isEmpty {
          guard spec.takesValue else {
            throw fail("unknown option '\(argument)' for 'news \(command.name)'")
          }
          inlineValue = String(rest.hasPrefix("=") ? rest.dropFirst() : rest)
        }
      } else {
        parsed.positionals.append(argument)
        continue
      }
      if spec.takesValue {
        let value: String
        if let inlineValue {
          value = inlineValue
        } else if index < arguments.count {
          value = arguments[index]
          index += 1
        } else {
          throw fail("--\(spec.name) needs a value \(spec.valueName ?? "")")
        }
        try check(value, kind: spec.kind, label: "--\(spec.name)", command: command)
        switch (spec.kind, parsed.values[spec.name]) {
        case (.list, let earlier?), (.listOf, let earlier?):
          // `--source a --source b` is `--source a,b`.
          parsed.values[spec.name] = earlier + "," + value
        default:
          // Given again, a single value is the last one (as getopt programs read it).
          parsed.values[spec.name] = value
        }
      } else {
        guard inlineValue == nil else { throw fail("--\(spec.name) does not take a value") }
        parsed.flags.insert(spec.name)
      }
    }
    if parsed[Options.help] { return parsed }
    try checkPositionals(parsed, command: command)
    return parsed
  }

  /// `--name only applies to 'add' and 'set'` when commands of the same family take `name`.
  private static func appliesElsewhere(_ name: String, family: [CommandSpec]) -> String? {
    let owners = family.filter { $0.options.contains { $0.name == name } }
    guard !owners.isEmpty else { return nil }
    let labels = owners.map { "'news \($0.name)'" }
    let list =
      labels.count == 1
      ? labels[0] : labels.dropLast().joined(separator: ", ") + " and " + labels[labels.count - 1]
    return "--\(name) only applies to \(list)"
  }

  /// Checks `value` (of the option or argument `label`) against `kind`: every command reads
  /// its values typed.
  private static func check(
    _ value: String, kind: ValueKind, label spec: String, command: CommandSpec
  ) throws(UsageError) {
    func fail(_ message: String, hint: String? = nil) -> UsageError {
      UsageError(command: command.name, message: message, hint: hint)
    }
    switch kind {
    case .flag, .text, .list:
      return
    case .integer(let range):
      guard let number = Int(value), range.contains(number) else {
        let bounds =
          range.upperBound == Int.max
          ? "\(range.lowerBound) or more" : "from \(range.lowerBound) to \(range.upperBound)"
        throw fail("\(spec) expects a whole number \(bounds), got '\(value)'")
      }
    case .duration(let range):
      guard DurationText.wholeSeconds(value, in: range) != nil else {
        throw fail(
          "\(spec) expects whole seconds from \(range.lowerBound) to \(range.upperBound), or a time"
            + " such as 30m, 2h or 1d; got '\(value)'")
      }
    case .choice(let choices):
      guard choices.contains(value) else {
        throw fail(
          "\(spec) must be one of \(choices.joined(separator: ", ")); got '\(value)'",
          hint: EditDistance.closest(to: value, in: choices).map { "did you mean '\($0)'?" })
      }
    case .listOf(let choices):
      let items = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      if let bad = items.first(where: { !$0.isEmpty && !choices.contains($0) }) {
        throw fail(
          "\(spec) takes \(choices.joined(separator: ",")) (comma-separated); got '\(bad)'")
      }
    }
  }

  /// `news sources add hn https://…`: a name written before the URL, as other readers take it,
  /// where this command takes `--name`.
  private static func nameFirstHint(_ positionals: [String], command: CommandSpec) -> String? {
    guard positionals.count == 2, command.options.contains(where: { $0.name == "name" }),
      !positionals[0].contains("://"), positionals[1].contains("://")
    else { return nil }
    return "did you mean '\(positionals[1]) --name \(positionals[0])'?"
  }

  private static func checkPositionals(_ parsed: ParsedArguments, command: CommandSpec)
    throws(UsageError)
  {
    let required = command.arguments.filter(\.required)
    if parsed.positionals.count < required.count {
      let missing = required[parsed.positionals.count]
      throw UsageError(command: command.name, message: "missing <\(missing.name)>")
    }
    let repeats = command.arguments.last?.repeating ?? false
    if !repeats, parsed.positionals.count > command.arguments.count {
      let extra = parsed.positionals[command.arguments.count]
      throw UsageError(
        command: command.name, message: "unexpected argument '\(extra)'",
        hint: nameFirstHint(parsed.positionals, command: command))
    }
    for (argument, value) in zip(command.arguments, parsed.positionals) {
      try check(value, kind: argument.kind, label: "<\(argument.name)>", command: command)
    }
  }
}
