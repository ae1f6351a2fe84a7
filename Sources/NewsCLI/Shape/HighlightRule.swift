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
  static func parse(_ value: Any?, file: String, timeZone: TimeZone) throws(ConfigurationError)
    -> [HighlightRule]
  {
    guard let value else { return [] }
    func fail(_ field: String, _ problem: String) -> ConfigurationError {
      .invalidConfigFile(file: file, source: nil, field: field, problem: problem)
    }
    guard let list = value as? [Any] else {
      throw fail("highlight", "must be a list of rules ({\"query\": …} or {\"words\": […]})")
    }
    var rules: [HighlightRule] = []
    for (index, item) in list.enumerated() {
      let field = "highlight[\(index)]"
      guard let object = item as? [String: Any] else { throw fail(field, "must be an object") }
      for key in object.keys where !(TextStyle.fields + ["query", "words"]).contains(key) {
        throw fail(
          field + "." + key,
          "is not understood (query or words, and \(TextStyle.fields.joined(separator: ", ")))")
      }
      let match: Match
      switch (object["query"], object["words"]) {
      case (let query?, nil):
        guard let text = query as? String else { throw fail(field + ".query", "must be a query") }
        do {
          match = .query(try ArticleQuery(text, timeZone: timeZone), text)
        } catch {
          throw fail(
            field + ".query",
            "cannot be read: \(error.problem) at column \(error.column) (docs/queries.md)")
        }
      case (nil, let words?):
        guard let list = words as? [String], !list.isEmpty,
          list.allSatisfy({ !$0.trimmingWhitespace().isEmpty })
        else { throw fail(field + ".words", "must be a list of words") }
        match = .words(list)
      default:
        throw fail(field, "must have one of query or words")
      }
      var style: TextStyle
      switch TextStyle.parse(object) {
      case .success(let parsed): style = parsed
      case .failure(let problem): throw fail(field + "." + problem.field, problem.text)
      }
      if style.isPlain { throw fail(field, "sets no colour or attribute (fg, bg, bold, …)") }
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
