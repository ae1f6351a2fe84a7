import Foundation

/// newsboat's filter language (`query:` feeds, `ignore-article`) made a query of ours
/// (docs/queries.md): `attribute operator value` terms joined by `and` and `or` with parentheses.
/// newsboat gives `and` and `or` one precedence, grouped to the right (`a and b or c` is
/// `a and (b or c)`); ours binds AND tighter, so every joined part is parenthesised as newsboat
/// grouped it. What has no faithful counterpart is refused, saying what.
public enum NewsboatFilter {
  /// Why an expression was not translated.
  public struct Refusal: Error, Equatable {
    public var reason: String
  }

  /// The query `expression` means, or why there is none.
  public static func translate(_ expression: String) throws(Refusal) -> String {
    var tokens = try tokenize(expression)
    guard !tokens.isEmpty else { throw Refusal(reason: "an empty expression") }
    let query = try parseExpression(&tokens)
    guard tokens.isEmpty else {
      throw Refusal(reason: "'\(tokens[0].text)' after the expression's end")
    }
    return query
  }

  /// newsboat's attributes of articles and feeds (its filter language's left-hand sides).
  static let attributes: Set<String> = [
    "title", "link", "author", "content", "description", "guid", "unread", "enclosure_url",
    "enclosure_type", "flags", "age", "date", "pubDate", "rssurl", "feedtitle", "feedlink",
    "feed_link", "feeddate", "feedindex", "tags", "unread_count", "total_count", "articleindex",
  ]

  /// Whether `text` is written as a filter of newsboat's (`title =~ "x"`, `unread_count > 0`):
  /// it starts with one of its attributes and an operator, whether or not it translates.
  public static func isFilter(_ text: String) -> Bool {
    let tokens: [Token]
    do {
      tokens = try tokenize(text)
    } catch {
      // A string without its end: no filter newsboat would read either.
      return false
    }
    guard tokens.count >= 3, tokens[0].kind == .word, attributes.contains(tokens[0].text) else {
      return false
    }
    return tokens[1].kind == .op || tokens[1].text == "between"
  }

  private struct Token: Equatable {
    enum Kind { case word, string, op, open, close }
    var kind: Kind
    var text: String
  }

  private static let operators = ["=~", "!~", "!=", "!#", "<=", ">=", "=", "#", "<", ">"]

  private static func tokenize(_ text: String) throws(Refusal) -> [Token] {
    var tokens: [Token] = []
    let characters = Array(text)
    var index = 0
    while index < characters.count {
      let character = characters[index]
      if character.isWhitespace {
        index += 1
      } else if character == "(" || character == ")" {
        tokens.append(Token(kind: character == "(" ? .open : .close, text: String(character)))
        index += 1
      } else if character == "\"" {
        var value = ""
        index += 1
        while index < characters.count, characters[index] != "\"" {
          // `\"` and `\\` are a quote and a backslash; any other backslash stays (`\.`).
          if characters[index] == "\\", index + 1 < characters.count,
            characters[index + 1] == "\"" || characters[index + 1] == "\\"
          {
            index += 1
          }
          value.append(characters[index])
          index += 1
        }
        guard index < characters.count else { throw Refusal(reason: "a string without its end") }
        index += 1
        tokens.append(Token(kind: .string, text: value))
      } else if let op = operators.first(where: { op in
        characters[index...].starts(with: Array(op))
      }) {
        tokens.append(Token(kind: .op, text: op))
        index += op.count
      } else {
        var word = ""
        while index < characters.count, !characters[index].isWhitespace,
          !"()\"=!#<>~".contains(characters[index])
        {
          word.append(characters[index])
          index += 1
        }
        guard !word.isEmpty else {
          throw Refusal(reason: "'\(characters[index])' where a term was expected")
        }
        tokens.append(Token(kind: .word, text: word))
      }
    }
    return tokens
  }

  /// expression := term (("and" | "or") expression)?: one level, grouped to the right.
  private static func parseExpression(_ tokens: inout [Token]) throws(Refusal) -> String {
    let left = try parseTerm(&tokens)
    guard let next = tokens.first, next.kind == .word, next.text == "and" || next.text == "or"
    else { return left }
    tokens.removeFirst()
    let right = try parseExpression(&tokens)
    return "(\(left)) \(next.text == "and" ? "AND" : "OR") (\(right))"
  }

  private static func parseTerm(_ tokens: inout [Token]) throws(Refusal) -> String {
    guard !tokens.isEmpty else { throw Refusal(reason: "a term missing at the end") }
    let first = tokens.removeFirst()
    if first.kind == .open {
      let inner = try parseExpression(&tokens)
      guard tokens.first?.kind == .close else { throw Refusal(reason: "a '(' without its ')'") }
      tokens.removeFirst()
      return inner
    }
    guard first.kind == .word else {
      throw Refusal(reason: "'\(first.text)' where a term was expected")
    }
    guard let op = tokens.first, op.kind == .op || op.text == "between" else {
      throw Refusal(reason: "'\(first.text)' without an operator")
    }
    tokens.removeFirst()
    guard let value = tokens.first, value.kind == .string || value.kind == .word else {
      throw Refusal(reason: "'\(first.text) \(op.text)' without a value")
    }
    tokens.removeFirst()
    return try term(first.text, op.text, value.text)
  }

  /// `title:/^word$/`: a regular expression matching `value` exactly.
  private static func exact(_ value: String) -> String {
    "^" + NSRegularExpression.escapedPattern(for: value) + "$"
  }

  private static func regex(_ field: String, _ pattern: String) throws(Refusal) -> String {
    guard !pattern.contains("/") else {
      throw Refusal(reason: "a regular expression holding '/' (ours ends at the first '/')")
    }
    return "\(field):/\(pattern)/"
  }

  private static func term(_ attribute: String, _ op: String, _ value: String) throws(Refusal)
    -> String
  {
    let fields: [String: ArticleQuery.TextField] = [
      "title": .title, "author": .author, "content": .text, "description": .text, "link": .url,
    ]
    if let field = fields[attribute]?.rawValue {
      switch op {
      case "=": return try regex(field, exact(value))
      case "!=": return "-" + (try regex(field, exact(value)))
      case "=~": return try regex(field, value)
      case "!~": return "-" + (try regex(field, value))
      case "#": return "\(field):\(quoted(value))"
      case "!#": return "-\(field):\(quoted(value))"
      default: break
      }
    }
    switch (attribute, op) {
    case ("tags", "#"): return "tag:\(quoted(value.lowercased()))"
    case ("tags", "!#"): return "-tag:\(quoted(value.lowercased()))"
    case ("flags", "#") where value == "s": return "is:bookmarked"
    case ("flags", "!#") where value == "s": return "-is:bookmarked"
    case ("unread", "="), ("unread", "!="):
      let yes = value == "yes" || value == "1" || value == "true"
      return (yes == (op == "=")) ? "is:unread" : "is:read"
    case ("age", "<"), ("age", "<="): if let days = Int(value) { return "age<\(days)d" }
    case ("age", ">"), ("age", ">="): if let days = Int(value) { return "age>\(days)d" }
    case ("age", "between"):
      let bounds = value.split(separator: ":").compactMap { Int($0) }
      if bounds.count == 2 { return "age>\(bounds[0])d age<\(bounds[1])d" }
    case ("pubDate", "<"), ("pubDate", "<="), ("pubDate", ">"), ("pubDate", ">="):
      // Compared as a string by newsboat (#3395); a day here, compared as one.
      if let day = day(value) { return "date\(op)\(day)" }
    case ("pubDate", "between"):
      let bounds = value.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
      if bounds.count == 2, let from = day(bounds[0]), let to = day(bounds[1]) {
        return "date:\(from)..\(to)"
      }
    case ("enclosure_url", "!="), ("enclosure_url", "="):
      if value.isEmpty { return op == "!=" ? "has:enclosure" : "-has:enclosure" }
    default: break
    }
    throw Refusal(
      reason: "'\(attribute) \(op)' has no counterpart in news's queries (docs/queries.md)")
  }

  /// The day `value` starts with (`2026-11-01`, or `2026-11-01 10:00`), as a query writes
  /// one; `nil` for anything else.
  private static func day(_ value: String) -> String? {
    let day = value.trimmingCharacters(in: .whitespaces).prefix(10)
    let digits = day.enumerated().allSatisfy { index, character in
      index == 4 || index == 7 ? character == "-" : character.isASCII && character.isNumber
    }
    return day.count == 10 && digits ? String(day) : nil
  }

  /// `value` as one word of a query: quoted when it holds a space or a quote-worthy character.
  private static func quoted(_ value: String) -> String {
    value.contains(where: { $0.isWhitespace || "():\"".contains($0) })
      ? "\"" + value.replacingOccurrences(of: "\"", with: "") + "\"" : value
  }
}
