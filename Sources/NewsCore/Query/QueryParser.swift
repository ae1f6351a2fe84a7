import FeedParsing
import Foundation

/// Reads the query language into an ``ArticleQuery/Node``: tokens first (words, `"phrases"`,
/// `/regex/`, parentheses, `-`), then `OR` of ANDs of NOTs, by recursive descent.
struct QueryParser {
  /// One token and the column it starts at.
  private struct Token {
    enum Kind: Equatable {
      case word(String)
      /// A word ending in `:` followed by a phrase: `author:"Ann Lee"`.
      case fieldPhrase(field: String, phrase: String)
      case phrase(String)
      case regex(String)
      /// A word ending in `:` followed by a regular expression: `title:/a|b/`.
      case fieldRegex(field: String, pattern: String)
      case open, close, minus
    }
    var kind: Kind
    var column: Int
  }

  private let text: String
  private let timeZone: TimeZone
  private var tokens: [Token] = []
  private var position = 0
  private var cache: [Unicode.Scalar: [UInt8]] = [:]

  /// The fields a word may name.
  static let fields =
    ArticleQuery.TextField.allCases.filter { $0 != .any }.map(\.rawValue)
    + ["source", "tag", "is", "has", "date", "age"]
  /// The longest query read, in Unicode scalars: a query is typed, not generated.
  static let maximumLength = 4_096
  /// How deep parentheses and NOTs may nest.
  static let maximumDepth = 64

  init(_ text: String, timeZone: TimeZone) {
    self.text = text
    self.timeZone = timeZone
  }

  private func failure(_ problem: String, at column: Int) -> ArticleQueryError {
    ArticleQueryError(problem: problem, query: text, column: column)
  }

  mutating func parse() throws(ArticleQueryError) -> ArticleQuery.Node {
    // Scalars, not characters: a letter followed by a million combining marks is one character
    // (and 2 MB to read on every command).
    guard text.utf8.count <= Self.maximumLength || text.unicodeScalars.count <= Self.maximumLength
    else {
      throw failure(
        "longer than \(Self.maximumLength) characters (Unicode scalars)", at: Self.maximumLength + 1
      )
    }
    tokens = try tokenize()
    guard !tokens.isEmpty else { throw failure("an empty query", at: 1) }
    let node = try or(depth: 0)
    if position < tokens.count {
      let token = tokens[position]
      throw failure(
        token.kind == .close ? "')' without its '('" : "unexpected \(describe(token))",
        at: token.column)
    }
    return node
  }

  // MARK: - Tokens

  private func tokenize() throws(ArticleQueryError) -> [Token] {
    let characters = Array(text)
    /// Where the regular expression opened at `start` closes: the next `/` not escaped by `\`.
    func regexEnd(after start: Int, column: Int) throws(ArticleQueryError) -> Int {
      var end = start + 1
      while end < characters.count, characters[end] != "/" {
        end += characters[end] == "\\" ? 2 : 1
      }
      guard end < characters.count else {
        throw failure("a regular expression without its closing '/'", at: column)
      }
      return end
    }
    var tokens: [Token] = []
    var index = 0
    func isBreak(_ character: Character) -> Bool {
      character.isWhitespace || character == "(" || character == ")" || character == "\""
    }
    while index < characters.count {
      let character = characters[index]
      let column = index + 1
      if character.isWhitespace {
        index += 1
        continue
      }
      switch character {
      case "(":
        tokens.append(Token(kind: .open, column: column))
        index += 1
      case ")":
        tokens.append(Token(kind: .close, column: column))
        index += 1
      case "\"":
        guard let end = characters[(index + 1)...].firstIndex(of: "\"") else {
          throw failure("a phrase without its closing '\"'", at: column)
        }
        tokens.append(Token(kind: .phrase(String(characters[(index + 1)..<end])), column: column))
        index = end + 1
      case "/":
        let end = try regexEnd(after: index, column: column)
        tokens.append(Token(kind: .regex(String(characters[(index + 1)..<end])), column: column))
        index = end + 1
      case "-"
      where index + 1 < characters.count && !isBreak(characters[index + 1])
        || index + 1 < characters.count && characters[index + 1] == "(":
        tokens.append(Token(kind: .minus, column: column))
        index += 1
      case "-" where index + 1 == characters.count || characters[index + 1].isWhitespace:
        throw failure("'-' needs a term right after it (-word, -\"a phrase\")", at: column)
      default:
        var end = index
        while end < characters.count, !isBreak(characters[end]) {
          // `field:/regex/`: the expression may hold what ends a word (spaces, parentheses).
          if characters[end] == "/", end > index, characters[end - 1] == ":" { break }
          end += 1
        }
        let word = String(characters[index..<end])
        if word.hasSuffix(":"), end < characters.count, characters[end] == "/" {
          let close = try regexEnd(after: end, column: end + 1)
          tokens.append(
            Token(
              kind: .fieldRegex(
                field: String(word.dropLast()), pattern: String(characters[(end + 1)..<close])),
              column: column))
          index = close + 1
          continue
        }
        // `field:"a phrase"`.
        if word.hasSuffix(":"), end < characters.count, characters[end] == "\"" {
          guard let close = characters[(end + 1)...].firstIndex(of: "\"") else {
            throw failure("a phrase without its closing '\"'", at: end + 1)
          }
          tokens.append(
            Token(
              kind: .fieldPhrase(
                field: String(word.dropLast()), phrase: String(characters[(end + 1)..<close])),
              column: column))
          index = close + 1
        } else {
          tokens.append(Token(kind: .word(word), column: column))
          index = end
        }
      }
    }
    return tokens
  }

  private func describe(_ token: Token) -> String {
    switch token.kind {
    case .word(let word): "'\(word)'"
    case .fieldPhrase(let field, let phrase): "'\(field):\"\(phrase)\"'"
    case .phrase(let phrase): "'\"\(phrase)\"'"
    case .regex(let pattern): "'/\(pattern)/'"
    case .fieldRegex(let field, let pattern): "'\(field):/\(pattern)/'"
    case .open: "'('"
    case .close: "')'"
    case .minus: "'-'"
    }
  }

  private func isKeyword(_ token: Token?, _ keyword: String) -> Bool {
    if case .word(let word)? = token?.kind { return word == keyword }
    return false
  }

  // MARK: - Grammar

  private var current: Token? { position < tokens.count ? tokens[position] : nil }

  private mutating func or(depth: Int) throws(ArticleQueryError) -> ArticleQuery.Node {
    var nodes = [try and(depth: depth)]
    while isKeyword(current, "OR") {
      let column = current!.column
      position += 1
      guard let next = current, next.kind != .close, !isKeyword(next, "OR") else {
        throw failure("OR needs a term after it", at: column)
      }
      nodes.append(try and(depth: depth))
    }
    return nodes.count == 1 ? nodes[0] : .or(nodes)
  }

  private mutating func and(depth: Int) throws(ArticleQueryError) -> ArticleQuery.Node {
    var nodes: [ArticleQuery.Node] = []
    while let token = current, token.kind != .close, !isKeyword(token, "OR") {
      if isKeyword(token, "AND") {
        guard !nodes.isEmpty else { throw failure("AND needs a term before it", at: token.column) }
        position += 1
        guard let next = current, next.kind != .close, !isKeyword(next, "OR"),
          !isKeyword(next, "AND")
        else { throw failure("AND needs a term after it", at: token.column) }
        continue
      }
      nodes.append(try not(depth: depth))
    }
    guard !nodes.isEmpty else {
      let column = current?.column ?? text.count + 1
      throw failure(
        isKeyword(current, "OR") ? "OR needs a term before it" : "a term is missing", at: column)
    }
    return nodes.count == 1 ? nodes[0] : .and(nodes)
  }

  private mutating func not(depth: Int) throws(ArticleQueryError) -> ArticleQuery.Node {
    guard let token = current else { throw failure("a term is missing", at: text.count + 1) }
    guard depth < Self.maximumDepth else {
      throw failure("nested more than \(Self.maximumDepth) deep", at: token.column)
    }
    if token.kind == .minus || isKeyword(token, "NOT") {
      position += 1
      guard let next = current, next.kind != .close, !isKeyword(next, "OR") else {
        throw failure(
          "\(token.kind == .minus ? "'-'" : "NOT") needs a term after it", at: token.column)
      }
      return .not(try not(depth: depth + 1))
    }
    return try primary(depth: depth)
  }

  private mutating func primary(depth: Int) throws(ArticleQueryError) -> ArticleQuery.Node {
    let token = current!
    position += 1
    switch token.kind {
    case .open:
      guard let next = current else { throw failure("'(' without its ')'", at: token.column) }
      guard next.kind != .close else {
        throw failure("empty parentheses", at: token.column)
      }
      let inner = try or(depth: depth + 1)
      guard current?.kind == .close else { throw failure("'(' without its ')'", at: token.column) }
      position += 1
      return inner
    case .close:
      throw failure("')' without its '('", at: token.column)
    case .minus:
      throw failure("'-' needs a term after it", at: token.column)
    case .phrase(let phrase):
      return try words(.any, phrase, column: token.column)
    case .regex(let pattern):
      return try regex(.any, pattern, column: token.column)
    case .fieldRegex(let field, let pattern):
      guard let textField = ArticleQuery.TextField(rawValue: field.lowercased()),
        textField != .any
      else {
        let fields = ArticleQuery.TextField.allCases.filter { $0 != .any }.map(\.rawValue)
        throw failure(
          "'\(field):' takes no regular expression (\(fields.map { "\($0):/…/" }.joined(separator: ", ")) do)",
          at: token.column)
      }
      return try regex(textField, pattern, column: token.column + field.count + 1)
    case .fieldPhrase(let field, let phrase):
      return try fieldTerm(field, phrase, column: token.column, quoted: true)
    case .word(let word):
      return try term(word, column: token.column)
    }
  }

  // MARK: - Terms

  /// A word: `field:value`, `age<7d`, `date>=2026-11-01`, or a bare word.
  private mutating func term(_ word: String, column: Int) throws(ArticleQueryError)
    -> ArticleQuery.Node
  {
    for key in ["age", "date"] where word.hasPrefix(key) {
      let rest = word.dropFirst(key.count)
      for op in ["<=", ">=", "<", ">", "="] where rest.hasPrefix(op) {
        let value = String(rest.dropFirst(op.count))
        let at = column + key.count + op.count
        return key == "age"
          ? try age(op, value, column: at, word: word)
          : try date(op, value, column: at)
      }
    }
    if let colon = word.firstIndex(of: ":"), colon != word.startIndex {
      let field = String(word[..<colon])
      let value = String(word[word.index(after: colon)...])
      let known = Self.fields.contains(field.lowercased())
      if known || Self.nearest(field) != nil {
        return try fieldTerm(field, value, column: column, quoted: false)
      }
    }
    return try words(.any, word, column: column)
  }

  /// `field:value` (`value` a word, or a phrase when `quoted`).
  private mutating func fieldTerm(_ field: String, _ value: String, column: Int, quoted: Bool)
    throws(ArticleQueryError) -> ArticleQuery.Node
  {
    let name = field.lowercased()
    guard Self.fields.contains(name) else {
      let hint = Self.nearest(field).map { " (did you mean '\($0)'?)" } ?? ""
      throw failure(
        "unknown field '\(field)'\(hint); fields are \(Self.fields.joined(separator: ", "))",
        at: column)
    }
    let at = column + field.count + 1
    guard !value.isEmpty || quoted else {
      throw failure("'\(field):' needs a value after it", at: at)
    }
    if let field = ArticleQuery.TextField(rawValue: name), field != .any {
      return try words(field, value, column: at)
    }
    switch name {
    case "source":
      return .source(value.lowercased())
    case "tag":
      return .tag(value.lowercased())
    case "is", "has":
      let states: [String: ArticleQuery.State] =
        name == "is"
        ? ["unread": .unread, "read": .read, "bookmarked": .bookmarked]
        : ["enclosure": .enclosure, "fulltext": .fulltext, "download": .download]
      guard let state = states[value.lowercased()] else {
        let known = states.keys.sorted().map { "\(name):\($0)" }.joined(separator: ", ")
        throw failure("unknown state '\(name):\(value)' (\(known))", at: column)
      }
      return .state(state)
    case "date":
      return try date(":", value, column: at)
    default:
      throw failure("age takes '<' or '>' and a duration: age<7d, age>12h", at: column)
    }
  }

  /// A word or phrase in `field`, folded; one with nothing to look for is refused (it would
  /// match everything, or nothing, quietly).
  private mutating func words(_ field: ArticleQuery.TextField, _ value: String, column: Int)
    throws(ArticleQueryError) -> ArticleQuery.Node
  {
    let folded = ArticleSearch.fold(value, cache: &cache)
    guard folded.contains(where: { $0 > 0x20 }) else {
      throw failure("nothing to look for", at: column)
    }
    return .text(field, folded)
  }

  /// `/pattern/` or `field:/pattern/`: compiled here, so that a bad one is told now.
  private func regex(_ field: ArticleQuery.TextField, _ pattern: String, column: Int)
    throws(ArticleQueryError) -> ArticleQuery.Node
  {
    guard !pattern.isEmpty else { throw failure("an empty regular expression", at: column) }
    guard (try? NSRegularExpression(pattern: pattern, options: QueryMatcher.regexOptions)) != nil
    else {
      throw failure("'/\(pattern)/' is not a regular expression", at: column)
    }
    return .regex(field, pattern)
  }

  /// `age<7d`, `age>12h`: minutes (`m`), hours (`h`), days (`d`) or weeks (`w`).
  private func age(_ op: String, _ value: String, column: Int, word: String)
    throws(ArticleQueryError) -> ArticleQuery.Node
  {
    guard op == "<" || op == ">" || op == "<=" || op == ">=" else {
      throw failure("age takes '<' or '>': age<7d (newer than), age>12h (older than)", at: column)
    }
    guard let seconds = AgeDuration.seconds(value) else {
      throw failure(
        "'\(value)' is not a duration: a number and m, h, d or w (7d, 12h, 2w)", at: column)
    }
    return .age(seconds: seconds, newer: op.hasPrefix("<"))
  }

  /// `date:2026-11-01`, `date:2026-11-01..2026-11-20` (either end may be left out),
  /// `date>=2026-11-01`, `date<2026-11-20`: whole days of the time zone.
  private func date(_ op: String, _ value: String, column: Int) throws(ArticleQueryError)
    -> ArticleQuery.Node
  {
    func day(_ text: Substring, at offset: Int) throws(ArticleQueryError) -> (
      start: Date, end: Date
    ) {
      let parts = text.split(separator: "-", omittingEmptySubsequences: false)
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = timeZone
      // Four, two and two ASCII digits: not `+026`, `2026-1-1`.
      guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
        parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
        let year = Int(parts[0]),
        let month = Int(parts[1]), let dayOfMonth = Int(parts[2]), (1...12).contains(month),
        (1...31).contains(dayOfMonth),
        let start = calendar.date(
          from: DateComponents(year: year, month: month, day: dayOfMonth)),
        calendar.component(.day, from: start) == dayOfMonth,
        let end = calendar.date(byAdding: .day, value: 1, to: start)
      else {
        throw failure("'\(text)' is not a day: YYYY-MM-DD", at: column + offset)
      }
      return (start, end)
    }
    switch op {
    case ":", "=":
      if let range = value.range(of: "..") {
        let first = value[..<range.lowerBound]
        let last = value[range.upperBound...]
        guard !first.isEmpty || !last.isEmpty else {
          throw failure("a range needs a day on at least one side of '..'", at: column)
        }
        let from = first.isEmpty ? nil : try day(first, at: 0).start
        let offset = value.distance(from: value.startIndex, to: range.upperBound)
        let until = last.isEmpty ? nil : try day(last, at: offset).end
        if let from, let until, from >= until {
          throw failure("the range ends before it starts", at: column)
        }
        return .date(from: from, until: until)
      }
      let (start, end) = try day(value[...], at: 0)
      return .date(from: start, until: end)
    case ">=": return .date(from: try day(value[...], at: 0).start, until: nil)
    case ">": return .date(from: try day(value[...], at: 0).end, until: nil)
    case "<=": return .date(from: nil, until: try day(value[...], at: 0).end)
    default: return .date(from: nil, until: try day(value[...], at: 0).start)
    }
  }

  /// The known field nearest `name` (at most two edits away, for a name of 3 letters or more).
  static func nearest(_ name: String) -> String? {
    let lower = name.lowercased()
    guard lower.count >= 3, lower.allSatisfy(\.isLetter) else { return nil }
    let scored = fields.map { ($0, EditDistance.between(lower, $0)) }.filter {
      $0.1 <= 2 && $0.1 > 0
    }
    return scored.min { $0.1 < $1.1 }?.0
  }

}
