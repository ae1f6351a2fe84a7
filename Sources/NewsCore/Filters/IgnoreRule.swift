import Foundation

/// A rule of the killfile (`news ignore`, `"ignore"` in `config.json`): the items it matches are
/// never shown or counted (`--show-ignored` shows them, marked).
///
/// A rule looks in one field: `title`, `author`, `link`, or `text` (title, description and
/// content). Its pattern is words, all of which must be there, folded as `news search` folds them
/// (any case, any accents), or with `regex` a regular expression, case-insensitive. A rule with a
/// `source` applies to that provider or feed source only. A rule of `query` is a query of the
/// language (docs/queries.md): what it matches, `news search` lists.
public struct IgnoreRule: Sendable, Equatable {
  /// Where a rule looks.
  public enum Field: String, Sendable, CaseIterable {
    case title, author, link, text
    /// The pattern is a query of the language.
    case query

    /// The fields `--in` names (a query is `--query`).
    public static let searched: [Field] = [.title, .author, .link, .text]
  }

  /// Where it looks.
  public var field: Field
  /// The words, or the regular expression.
  public var pattern: String
  /// Whether `pattern` is a regular expression.
  public var isRegex: Bool
  /// The only provider or source it applies to; `nil`: every one.
  public var source: String?

  /// A rule; check a regular expression with ``problem``.
  public init(field: Field, pattern: String, isRegex: Bool = false, source: String? = nil) {
    self.field = field
    self.pattern = pattern
    self.isRegex = isRegex
    self.source = source
  }

  /// Why the rule cannot be used (an empty pattern, a regular expression that does not
  /// compile), or `nil`.
  public var problem: String? {
    if pattern.trimmingCharacters(in: .whitespaces).isEmpty { return "has an empty pattern" }
    if field == .query {
      do {
        try ArticleQuery.check(pattern)
        return nil
      } catch {
        return "holds a query that cannot be read: \(error.problem) at column \(error.column)"
      }
    }
    guard isRegex else { return nil }
    do {
      _ = try NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
      return nil
    } catch {
      return "holds '\(pattern)', which is not a regular expression"
    }
  }

  /// The rule as `config.json` holds it: `{"title": "sponsored"}`, `{"text": "a|b",
  /// "regex": true, "source": "hn"}`.
  var json: JSONValue {
    var members: [(String, JSONValue)] = [(field.rawValue, .string(pattern))]
    if isRegex { members.append(("regex", .bool(true))) }
    if let source { members.append(("source", .string(source))) }
    return .object(members)
  }

  /// How it reads in `news ignore list`: in the query language, as it matches
  /// (`title:sponsored`, `title:/a|b/ source:hn`).
  public var summary: String {
    let source = self.source.map { " source:\($0)" } ?? ""
    if field == .query { return pattern + source }
    let prefix =
      switch field {
      case .title: "title:"
      case .author: "author:"
      case .link: "url:"
      case .text, .query: ""
      }
    if isRegex { return prefix + "/" + Self.slashesEscaped(pattern) + "/" + source }
    let words = pattern.split(whereSeparator: \.isWhitespace).map { word in
      let plain =
        word.allSatisfy { $0.isLetter || $0.isNumber || "-._'".contains($0) }
        && !["OR", "AND", "NOT"].contains(String(word))
      return prefix + (plain ? String(word) : "\"\(word)\"")
    }
    return words.joined(separator: " ") + source
  }

  /// `pattern` with each `/` not already escaped written `\/`, so that it reads back between
  /// slashes as the same expression.
  static func slashesEscaped(_ pattern: String) -> String {
    var out = ""
    var escaped = false
    for character in pattern {
      if character == "/", !escaped { out += "\\" }
      out.append(character)
      escaped = character == "\\" && !escaped
    }
    return out
  }

  /// The rule as a query of the language (its `source` aside, which names the provider alone):
  /// words are `title:` words (or bare words for the text), an expression `title:/…/` (or `/…/`).
  /// `nil` when it cannot be used.
  func query(timeZone: TimeZone) -> ArticleQuery? {
    if field == .query { return try? ArticleQuery(pattern, timeZone: timeZone) }
    let textField: ArticleQuery.TextField =
      switch field {
      case .title: .title
      case .author: .author
      case .link: .url
      case .text, .query: .any
      }
    if isRegex {
      guard (try? NSRegularExpression(pattern: pattern, options: QueryMatcher.regexOptions)) != nil
      else { return nil }
      return ArticleQuery(.regex(textField, pattern), text: summary)
    }
    var cache: [Unicode.Scalar: [UInt8]] = [:]
    let words = pattern.split(whereSeparator: \.isWhitespace)
      .map { ArticleSearch.fold(String($0), cache: &cache) }.filter { !$0.isEmpty }
    guard !words.isEmpty else { return nil }
    let nodes = words.map { ArticleQuery.Node.text(textField, $0) }
    return ArticleQuery(nodes.count == 1 ? nodes[0] : .and(nodes), text: summary)
  }
}

/// Rules made ready to match many articles: each rule a query of the one language (words
/// folded and expressions compiled once), decided by one ``QueryMatcher`` each.
public struct IgnoreFilter {
  private struct Compiled {
    var rule: IgnoreRule
    var matcher: QueryMatcher
  }

  private var rules: [Compiled]
  /// The time every rule's regular expressions may take together, for the run.
  public let budget: PatternBudget

  /// The regular-expression rules stopped (runaway backtracking: `(a+)+$`), or all of them once
  /// the run's time is spent: skipped from then on, for the rest of the run.
  public var slowRules: [IgnoreRule] {
    let stopped = Set(budget.stoppedPatterns)
    return rules.map(\.rule).filter { $0.isRegex && stopped.contains($0.pattern) }
  }

  /// The warnings to show for the rules' stopped expressions.
  public var warnings: [String] {
    budget.warnings { pattern in
      if let rule = rules.first(where: { $0.rule.isRegex && $0.rule.pattern == pattern })?.rule {
        return "ignore rule \(rule.summary)"
      }
      return "an ignore rule's /\(pattern)/"
    }
  }

  /// A filter of `rules` (a rule that cannot be used matches nothing); a query's `age<`, states
  /// and tags are decided with `facts`, its days are those of `timeZone`. All their regular
  /// expressions share one `budget`.
  public init(
    _ rules: [IgnoreRule], facts: @autoclosure () -> QueryFacts = QueryFacts(now: .now),
    timeZone: TimeZone, budget: PatternBudget = PatternBudget()
  ) {
    self.budget = budget
    let known = rules.contains { $0.field == .query } ? facts() : QueryFacts(now: .distantPast)
    self.rules = rules.compactMap { rule in
      guard let query = rule.query(timeZone: timeZone) else { return nil }
      return Compiled(rule: rule, matcher: QueryMatcher(query, facts: known, budget: budget))
    }
  }

  /// Whether no rule can match anything.
  public var isEmpty: Bool { rules.isEmpty }

  /// Whether a rule hides `article`.
  public mutating func ignores(_ article: Article) -> Bool {
    for index in rules.indices {
      if let source = rules[index].rule.source, source != article.provider { continue }
      if rules[index].matcher.matches(article) { return true }
    }
    return false
  }
}
