import FeedParsing
import NewsCore

/// `news ignore` as text (the JSON is ``IgnoreJSON``'s): the rules numbered as `remove` takes them.
enum IgnoreText {
  /// `added rule 3: title contains "sponsored"`.
  static func rule(_ number: Int, _ rule: IgnoreRule, verb: String) -> String {
    "\(verb) rule \(number): \(TerminalSanitizer.clean(rule.summary))"
  }

  static func list(_ rules: [IgnoreRule]) -> [String] {
    guard !rules.isEmpty else { return ["No ignore rules (news ignore add <words>)."] }
    return rules.enumerated().map { index, rule in
      "\(index + 1). \(TerminalSanitizer.clean(rule.summary))"
    }
  }
}
