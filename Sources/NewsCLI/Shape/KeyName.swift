import FeedParsing

/// Keys as `config.json` and `news keys` write them: a character (`J`, `é`, `/`), a name
/// (`Enter`, `Space`, `PgDn`, `F5`), Ctrl and a letter (`C-d`, or newsboat's `^D`), and sequences
/// of them (`gg`, or names apart: `g Enter`). Keys are the characters the terminal sends: on a
/// non-Latin layout, a letter is the one that layout types.
enum KeyName {
  /// The named keys, canonical name first where a key has two.
  static let names: [(String, Key)] =
    [
      ("Enter", .enter), ("Esc", .escape), ("Escape", .escape), ("Tab", .tab),
      ("S-Tab", .backTab), ("Backspace", .backspace), ("Space", .character(" ")), ("Up", .up),
      ("Down", .down), ("Left", .left), ("Right", .right), ("PgUp", .pageUp),
      ("PageUp", .pageUp), ("PgDn", .pageDown), ("PageDown", .pageDown), ("Home", .home),
      ("End", .end), ("Insert", .insert), ("Delete", .delete),
    ] + (1...12).map { ("F\($0)", Key.function($0)) }

  /// Why a key name cannot be read, as a sentence's end.
  struct Problem: Error, Equatable {
    var text: String
  }

  /// The keys `text` names, in the order they are typed.
  static func parse(_ text: String) throws(Problem) -> [Key] {
    let tokens = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    guard !tokens.isEmpty else {
      // A lone space is the space bar.
      if text == " " { return [.character(" ")] }
      throw Problem(text: "is not a key (write Space for the space bar)")
    }
    var keys: [Key] = []
    for token in tokens { keys += try parseToken(token) }
    return keys
  }

  private static func parseToken(_ token: String) throws(Problem) -> [Key] {
    if let named = names.first(where: { $0.0.lowercased() == token.lowercased() }) {
      return [named.1]
    }
    let letters = Array(token)
    if letters.count == 3, letters[0] == "C" || letters[0] == "c", letters[1] == "-" {
      return [try control(letters[2], token: token)]
    }
    if letters.count == 2, letters[0] == "^" {
      return [try control(letters[1], token: token)]
    }
    if letters.count == 1 {
      guard let scalar = letters[0].unicodeScalars.first, scalar.value >= 0x20,
        scalar.value != 0x7F
      else { throw Problem(text: "is not a key that can be typed") }
      return [.character(letters[0])]
    }
    // Not a name: a word that looks like one is a mistyped name (`Entr`), else a sequence of
    // the characters typed one after the other (`gg`, `ZZ`).
    let looksLikeName =
      letters[0].isUppercase && letters.count >= 3 && letters.dropFirst().allSatisfy(\.isLowercase)
    if looksLikeName || token.contains("-") && letters.count > 2 {
      let suggestion = EditDistance.closest(to: token, in: names.map(\.0))
      throw Problem(
        text: "is not a key name"
          + (suggestion.map { " (did you mean \($0)?)" }
            ?? " (names: Enter, Esc, Tab, S-Tab, Backspace, Space, Up, Down, Left, Right, "
            + "PgUp, PgDn, Home, End, Insert, Delete, F1–F12, C-a–C-z)"))
    }
    return letters.map(Key.character)
  }

  /// Ctrl and `letter`; C-c and C-z are the terminal's (quit and suspend) and cannot be bound.
  private static func control(_ letter: Character, token: String) throws(Problem) -> Key {
    let lower = Character(letter.lowercased())
    guard let ascii = lower.asciiValue, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(ascii)
    else { throw Problem(text: "is not a key name (Ctrl goes with a letter: C-d)") }
    switch lower {
    case "c": throw Problem(text: "is Ctrl-C, which always quits (exit 130): it cannot be bound")
    case "z": throw Problem(text: "is Ctrl-Z, which always suspends: it cannot be bound")
    case "i": return .tab
    case "m", "j": return .enter
    case "h": return .backspace
    default: return .control(lower)
    }
  }

  /// The canonical name of `key`.
  static func describe(_ key: Key) -> String {
    switch key {
    case .character(" "): return "Space"
    case .character(let character): return String(character)
    case .control(let letter): return "C-\(letter)"
    case .interrupt: return "C-c"
    case .suspend: return "C-z"
    default: return names.first { $0.1 == key }?.0 ?? "?"
    }
  }

  /// The canonical name of a sequence: characters together (`gg`), else names apart.
  static func describe(_ keys: [Key]) -> String {
    let parts = keys.map(describe)
    if keys.count > 1, parts.allSatisfy({ $0.count == 1 }) { return parts.joined() }
    return parts.joined(separator: " ")
  }
}
