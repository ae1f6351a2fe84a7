import FeedParsing
import Foundation
import NewsCore

/// One entry of `"highlight"`: a query colours the list's rows it matches
/// (`{"query": "tag:urgent", "fg": "red"}`), words are coloured where the article's text has
/// them (`{"words": ["Swift"], "fg": "yellow"}`).
struct HighlightRule: Equatable, Sendable {
  enum Match: Equatable, Sendable {
    /// The query, and its text as written.
    case query(ArticleQuery, String)
    /// Matched whole, letter case ignored.
    case words([String])

    static func == (left: Match, right: Match) -> Bool {
      switch (left, right) {
      case (.query(_, let a), .query(_, let b)): a == b
      case (.words(let a), .words(let b)): a == b
      default: false
      }
    }
  }

  var match: Match
  var style: TextStyle

  /// Reads the list, every rule checked; errors name `highlight[2].fg` and the like.
  static func parse(_ node: ConfigNode?, timeZone: TimeZone) throws(ConfigurationError)
    -> [HighlightRule]
  {
    guard let node else { return [] }
    var rules: [HighlightRule] = []
    for item in try node.list("must be a list of rules ({\"query\": …} or {\"words\": […]})") {
      try item.requireObject("must be an object")
      try item.refuseOthers(
        than: TextStyle.fields + ["query", "words"],
        "is not understood (query or words, and \(TextStyle.fields.joined(separator: ", ")))")
      let match: Match
      switch (item["query"], item["words"]) {
      case (let query?, nil):
        let text = try query.string("must be a query")
        do {
          match = .query(try ArticleQuery(text, timeZone: timeZone), text)
        } catch {
          throw query.fail(
            "cannot be read: \(error.problem) at column \(error.column) (docs/queries.md)")
        }
      case (nil, let words?):
        let list = try words.strings("must be a list of words")
        guard !list.isEmpty, list.allSatisfy({ !$0.trimmingWhitespace().isEmpty }) else {
          throw words.fail("must be a list of words")
        }
        match = .words(list)
      default:
        throw item.fail("must have one of query or words")
      }
      var style = try TextStyle.parse(item)
      if style.isPlain { throw item.fail("sets no colour or attribute (fg, bg, bold, …)") }
      style = style.over(.plain)
      rules.append(HighlightRule(match: match, style: style))
    }
    return rules
  }

  /// Where `words` occur whole in `line`, as ranges of its characters (letter case ignored).
  static func occurrences(of words: [String], in line: String) -> [Range<Int>] {
    // Folded as search folds its words (letter case and accents ignored: `cafe` marks
    // "Café"), a character at a time, so that positions stay those of the line.
    let characters = line.map(folded)
    var ranges: [Range<Int>] = []
    for word in words {
      let needle = word.map(folded)
      guard !needle.isEmpty, needle.count <= characters.count else { continue }
      var start = 0
      while start + needle.count <= characters.count {
        if characters[start] == needle[0],
          Array(characters[start..<(start + needle.count)]) == needle,
          start == 0 || !isWordCharacter(characters[start - 1]),
          start + needle.count == characters.count
            || !isWordCharacter(characters[start + needle.count])
        {
          ranges.append(start..<(start + needle.count))
          start += needle.count
        } else {
          start += 1
        }
      }
    }
    return ranges
  }

  /// `character` without case and accents, when that is one character; else lower-cased (or
  /// as it is).
  private static func folded(_ character: Character) -> Character {
    let plain = String(character).folding(
      options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    if plain.count == 1, let first = plain.first { return first }
    let lower = character.lowercased()
    return lower.count == 1 ? lower.first ?? character : character
  }

  private static func isWordCharacter(_ character: Character) -> Bool {
    character.isLetter || character.isNumber || character == "_"
  }
}
