import FeedParsing

/// `news ignore add|remove|list`: the killfile, kept in `config.json`'s `ignore` list (edited in
/// place, as the sources are).
extension SubscriptionService {
  /// Why an ignore rule cannot be added or removed.
  public enum IgnoreError: NewsError, Equatable {
    /// The rule cannot be used (an empty pattern, a bad regular expression).
    case invalid(String)
    /// The rule names a source that does not exist.
    case unknownSource(name: String, known: [String])
    /// No rule has that number.
    case noSuchRule(Int, count: Int)

    public var message: String {
      switch self {
      case .invalid(let problem): "the rule " + problem
      case .unknownSource(let name, let known):
        "no source named '\(TerminalSanitizer.clean(name))'; "
          + SourceName.listing(known, near: name)
      case .noSuchRule(let number, let count):
        count == 0
          ? "there is no rule \(number): there are no rules"
          : "there is no rule \(number): the rules are numbered 1 to \(count)"
      }
    }

    public var exitCode: ExitCode { .usage }

    public var advice: Advice? {
      if case .noSuchRule(_, let count) = self, count > 0 { return .listIgnoreRules }
      return nil
    }
  }

  /// The rules, in order (numbered from 1 by `news ignore list`).
  public var ignoreRules: [IgnoreRule] { configFile?.ignore ?? [] }

  /// Adds `rule` to the end of the list.
  ///
  /// - Parameter providers: the providers' names, which a rule's source may name too.
  public func addIgnoreRule(_ rule: IgnoreRule, providers: [String]) throws {
    if let problem = rule.problem { throw IgnoreError.invalid(problem) }
    if let source = rule.source {
      let known = providers + sources.map(\.name)
      guard known.contains(source) else {
        throw IgnoreError.unknownSource(name: source, known: known)
      }
    }
    try edit { editor throws(ConfigFileEditor.Failure) in
      try editor.append(rule.json.serialized(), to: "ignore")
    }
  }

  /// Removes rule `number` (from 1); returns it.
  @discardableResult
  public func removeIgnoreRule(_ number: Int) throws -> IgnoreRule {
    let rules = ignoreRules
    guard (1...max(1, rules.count)).contains(number), number <= rules.count else {
      throw IgnoreError.noSuchRule(number, count: rules.count)
    }
    try edit { editor throws(ConfigFileEditor.Failure) in
      _ = try editor.remove(at: number - 1, from: "ignore")
    }
    return rules[number - 1]
  }
}
