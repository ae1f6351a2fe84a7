/// The literal words every match of a regular expression holds, for the search index to narrow
/// by (`date:2026-11-01..2026-11-20 /\bAI\b/` reads the articles holding the word `ai`, not
/// every article of those days).
///
/// Read conservatively: only what the pattern's top level requires is taken (a run of ASCII
/// letters and digits, lower-cased as the index folds them), a character made optional by `?`,
/// `*` or `{…}` is left out, groups and classes are passed over, and a pattern with a top-level
/// `|`, an inline option or group `(?…)`, or an escape other than a sign, `\b` and the classes
/// (`\d`, `\w`, `\s`…) gives none: the index is then not asked, and every record is read, as
/// before. A run is bounded (``IndexRun``) beside a `\b`, a `^` or `$`, or a literal ASCII sign.
enum RegexRuns {
  /// The runs every match of `pattern` holds; none when it cannot tell.
  static func required(in pattern: String) -> [IndexRun] {
    let scalars = Array(pattern.unicodeScalars)
    // `\Q…\E` quotes what would be syntax, brackets included: no reading of the rest holds.
    if pattern.contains("\\Q") { return [] }
    var runs: [IndexRun] = []
    var current: [UInt8] = []
    var boundedBefore = false
    // Whether what came last bounds a run starting now.
    var bounding = false
    func finish(bounded: Bool) {
      if current.count >= 2 || (current.count == 1 && boundedBefore && bounded) {
        runs.append(IndexRun(bytes: current, boundedBefore: boundedBefore, boundedAfter: bounded))
      }
      current = []
    }
    // Whether a quantifier at `next` may leave out what is just before it.
    func optional(at next: Int) -> Bool {
      next < scalars.count && "?*{".unicodeScalars.contains(scalars[next])
    }
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      switch scalar {
      case "|":
        return []
      case "\\":
        guard index < scalars.count else { return [] }
        let escaped = scalars[index]
        index += 1
        if escaped == "b" || (escaped.isASCII && !isWord(escaped)) {
          // A boundary, or a literal sign: a run ends and may start here (unless a quantifier
          // makes the sign optional).
          bounding = !optional(at: index)
          finish(bounded: bounding)
        } else if "dDwWsSnrtfaeBAzZG".unicodeScalars.contains(escaped) {
          finish(bounded: false)
          bounding = false
        } else {
          return []
        }
      case "(":
        guard index < scalars.count, scalars[index] != "?",
          let end = groupEnd(in: scalars, from: index)
        else { return [] }
        finish(bounded: false)
        bounding = false
        index = end
      case "[":
        guard let end = classEnd(in: scalars, from: index) else { return [] }
        finish(bounded: false)
        bounding = false
        index = end
      case "?", "*", "{":
        // The character before may be absent: it is no part of what every match holds.
        if !current.isEmpty { current.removeLast() }
        finish(bounded: false)
        bounding = false
        if scalar == "{" {
          while index < scalars.count, scalars[index] != "}" { index += 1 }
          index += 1
        }
      case "+":
        finish(bounded: false)
        bounding = false
      case "^", "$":
        bounding = !optional(at: index)
        finish(bounded: bounding)
      case ".":
        finish(bounded: false)
        bounding = false
      default:
        if isWord(scalar) {
          if current.isEmpty { boundedBefore = bounding }
          current.append(UInt8(scalar.value) | (scalar.properties.isUppercase ? 0x20 : 0))
          bounding = false
        } else if scalar.isASCII {
          // A literal sign or space: no letter or digit beside it in a match.
          bounding = !optional(at: index)
          finish(bounded: bounding)
        } else {
          // A character the index folds its own way (`ſ` matches `s`): nothing bounded by it.
          finish(bounded: false)
          bounding = false
        }
      }
    }
    finish(bounded: false)
    return runs
  }

  /// Whether `scalar` is an ASCII letter or digit.
  private static func isWord(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
  }

  /// The index past the `]` that ends the class opened just before `start`, as ICU (which
  /// `NSRegularExpression` is) reads a class: a `[` inside one opens a nested class, and a `]`
  /// first in a class (after `[` or `[^`) is a literal one (`[]a]`, `[a[]b]]`); escapes are
  /// passed over. `nil` when it is not closed.
  private static func classEnd(in scalars: [Unicode.Scalar], from start: Int) -> Int? {
    var depth = 1
    var index = start
    func passLeadingBracket() {
      if index < scalars.count, scalars[index] == "^" { index += 1 }
      if index < scalars.count, scalars[index] == "]" { index += 1 }
    }
    passLeadingBracket()
    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      switch scalar {
      case "\\": index += 1
      case "[":
        depth += 1
        passLeadingBracket()
      case "]":
        depth -= 1
        if depth == 0 { return index }
      default: break
      }
    }
    return nil
  }

  /// The index past the `)` that ends the group opened just before `start`: nested groups
  /// counted, escapes passed over, and a class inside read whole (`(a[)]b)` is one group).
  /// `nil` when it is not closed.
  private static func groupEnd(in scalars: [Unicode.Scalar], from start: Int) -> Int? {
    var depth = 1
    var index = start
    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      switch scalar {
      case "\\": index += 1
      case "[":
        guard let end = classEnd(in: scalars, from: index) else { return nil }
        index = end
      case "(": depth += 1
      case ")":
        depth -= 1
        if depth == 0 { return index }
      default: break
      }
    }
    return nil
  }
}
