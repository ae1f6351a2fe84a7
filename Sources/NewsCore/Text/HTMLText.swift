/// Turns the HTML-ish text some providers send into plain text.
public enum HTMLText {
  /// Removes tags, decodes entities, turns `\r\n` into line breaks and drops newsapi.org's
  /// `[+1234 chars]` marker (the cut itself stays visible as `…`).
  public static func plain(_ text: String) -> String {
    // Most text (feeds are cleaned when read) has nothing to change: one pass over its bytes
    // says so, and the text is returned as it is.
    if isPlain(text) { return text }
    return cleaned(text)
  }

  /// Whether `plain` would return `text` unchanged: no tag, entity or carriage return, no space
  /// at a line's start or end or after another, no blank line at the start or end or after
  /// another, no `[+N chars]` marker.
  static func isPlain(_ text: String) -> Bool {
    var previous: UInt8 = 0x0A
    var blankLine = false
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "<"), UInt8(ascii: "&"), 0x0D:
        return false
      case 0x20:
        if previous == 0x20 || previous == 0x0A { return false }
      case 0x0A:
        if previous == 0x20 { return false }
        if previous == 0x0A {
          // A first line that is blank, or two blank lines in a row.
          if blankLine || text.utf8.first == 0x0A { return false }
          blankLine = true
        } else {
          blankLine = false
        }
      default:
        break
      }
      previous = byte
    }
    return previous != 0x20 && previous != 0x0A && !text.hasSuffix("chars]")
  }

  /// The full cleaning, scalar by scalar (every character it looks for is ASCII).
  static func cleaned(_ text: String) -> String {
    let scalars = text.unicodeScalars
    var out = String.UnicodeScalarView()
    var index = scalars.startIndex
    // Once a search for `>` has failed, none follows: the text is scanned at most once more.
    var closingBracketAhead = true
    while index < scalars.endIndex {
      let scalar = scalars[index]
      let next = scalars.index(after: index)
      if scalar == "<", closingBracketAhead, startsTag(scalars[next...]) {
        guard let close = scalars[index...].firstIndex(of: ">") else {
          closingBracketAhead = false
          out.append(scalar)
          index = next
          continue
        }
        let name = String(scalars[next..<close]).lowercased()
        if name.hasPrefix("br") || name.hasPrefix("/p") || name.hasPrefix("p ") || name == "p"
          || name.hasPrefix("li")
        {
          out.append("\n")
        }
        index = scalars.index(after: close)
        continue
      }
      if scalar == "&", let semicolon = scalars[index...].prefix(12).firstIndex(of: ";"),
        let decoded = entity(String(scalars[next..<semicolon]))
      {
        out.append(contentsOf: decoded.unicodeScalars)
        index = scalars.index(after: semicolon)
        continue
      }
      if scalar == "\r" {
        // \r\n and a lone \r are both one line break.
        out.append("\n")
        index = next < scalars.endIndex && scalars[next] == "\n" ? scalars.index(after: next) : next
        continue
      }
      out.append(scalar)
      index = next
    }
    return collapse(removingCharsMarker(String(out)))
  }

  /// Whether the text after a `<` starts a tag (`<p`, `</p`, `<!--`).
  private static func startsTag(_ rest: Substring.UnicodeScalarView) -> Bool {
    guard let first = rest.first else { return false }
    return first.isASCIILetter || first == "/" || first == "!"
  }

  private static func entity(_ name: String) -> Character? {
    switch name {
    case "amp": return "&"
    case "lt": return "<"
    case "gt": return ">"
    case "quot": return "\""
    case "apos": return "'"
    case "nbsp": return " "
    case "hellip": return "…"
    case "mdash": return "—"
    case "ndash": return "–"
    case "rsquo": return "’"
    case "lsquo": return "‘"
    case "rdquo": return "”"
    case "ldquo": return "“"
    default:
      guard name.hasPrefix("#") else { return nil }
      let digits = name.dropFirst()
      let value =
        digits.first == "x" || digits.first == "X"
        ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
      return value.flatMap(Unicode.Scalar.init).map(Character.init)
    }
  }

  /// `… [+8749 chars]` at the end of newsapi.org content.
  private static func removingCharsMarker(_ text: String) -> String {
    guard text.hasSuffix("chars]"), let open = text.lastIndex(of: "[") else { return text }
    let marker = text[open...]
    guard marker.hasPrefix("[+"),
      marker.dropFirst(2).dropLast(" chars]".count).allSatisfy(\.isNumber)
    else { return text }
    var kept = String(text[..<open])
    while kept.last?.isWhitespace == true { kept.removeLast() }
    if !kept.hasSuffix("…") { kept += "…" }
    return kept
  }

  /// Runs of spaces become one; more than one blank line becomes one.
  private static func collapse(_ text: String) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
    var out: [String] = []
    for line in lines {
      if line.isEmpty, out.last?.isEmpty ?? true { continue }
      out.append(line)
    }
    while out.last?.isEmpty == true { out.removeLast() }
    return out.joined(separator: "\n")
  }
}
