/// Turns the HTML-ish text some providers send into plain text.
public enum HTMLText {
  /// Removes tags, decodes entities, turns `\r\n` into line breaks and drops newsapi.org's
  /// `[+1234 chars]` marker (the cut itself stays visible as `…`).
  public static func plain(_ text: String) -> String {
    var out = ""
    var index = text.startIndex
    // Once a search for `>` has failed, none follows: the text is scanned at most once more.
    var closingBracketAhead = true
    while index < text.endIndex {
      let character = text[index]
      if character == "<", closingBracketAhead, startsTag(text[text.index(after: index)...]) {
        guard let close = text[index...].firstIndex(of: ">") else {
          closingBracketAhead = false
          out.append(character)
          index = text.index(after: index)
          continue
        }
        let name = text[text.index(after: index)..<close].lowercased()
        if name.hasPrefix("br") || name.hasPrefix("/p") || name.hasPrefix("p ") || name == "p"
          || name.hasPrefix("li")
        {
          out += "\n"
        }
        index = text.index(after: close)
        continue
      }
      if character == "&", let semicolon = text[index...].prefix(12).firstIndex(of: ";"),
        let decoded = entity(String(text[text.index(after: index)..<semicolon]))
      {
        out.append(decoded)
        index = text.index(after: semicolon)
        continue
      }
      out.append(character == "\r\n" || character == "\r" ? "\n" : character)
      index = text.index(after: index)
    }
    return collapse(removingCharsMarker(out))
  }

  /// Whether the text after a `<` starts a tag (`<p`, `</p`, `<!--`).
  private static func startsTag(_ rest: Substring) -> Bool {
    guard let first = rest.unicodeScalars.first else { return false }
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
