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

  /// Plain text tidied as ``plain(_:)`` tidies (line breaks, runs of spaces, blank lines), its
  /// `<` and `&` left alone: for text that is not HTML, such as an Atom title of `type="text"`.
  public static func tidy(_ text: String) -> String {
    collapse(normalizingLineBreaks(text))
  }

  /// The full cleaning: tags removed (script, style, noscript, head and comments with
  /// everything in them), block elements ending lines, then references decoded (so `&lt;b&gt;`
  /// stays the text `<b>`).
  static func cleaned(_ text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    var out = String.UnicodeScalarView()
    var index = 0
    // Once a search for `>` has failed, none follows: the text is scanned at most once more.
    var closingBracketAhead = true
    while index < scalars.count {
      let scalar = scalars[index]
      guard scalar == "<", closingBracketAhead, index + 1 < scalars.count,
        startsTag(scalars[index + 1])
      else {
        out.append(scalar)
        index += 1
        continue
      }
      if starts(scalars, at: index, with: "<!--") {
        index = after(scalars, "-->", from: index + 4) ?? scalars.count
        continue
      }
      guard let close = scalars[index...].firstIndex(of: ">") else {
        closingBracketAhead = false
        out.append(scalar)
        index += 1
        continue
      }
      let name = tagName(scalars, from: index + 1)
      let element = name.hasPrefix("/") ? String(name.dropFirst()) : name
      index = close + 1
      if rawTextElements.contains(name) {
        // Everything up to its end tag is code or metadata, never text.
        index =
          after(scalars, "</" + name, from: index).map { end in
            (scalars[end...].firstIndex(of: ">") ?? scalars.count - 1) + 1
          } ?? scalars.count
      } else if lineElements.contains(name) {
        out.append("\n")
      } else if blockElements.contains(element) {
        out.append(contentsOf: "\n\n".unicodeScalars)
      }
    }
    // `&nbsp;` spaces text out as a space does (and collapses with it).
    let decoded = XMLTokenizer.decodingReferences(
      Array(String(out).replacingOccurrences(of: "&nbsp;", with: " ").utf8)[...])
    return collapse(removingCharsMarker(normalizingLineBreaks(decoded)))
  }

  /// Elements whose content is never text (code, styles, what a page shows without scripts).
  private static let rawTextElements: Set<String> = [
    "script", "style", "noscript", "applet", "template",
  ]

  /// Elements whose start tag ends a line.
  private static let lineElements: Set<String> = ["br", "li", "tr", "dt", "dd"]

  /// Elements that end a paragraph.
  private static let blockElements: Set<String> = [
    "p", "div", "blockquote", "pre", "ul", "ol", "dl", "table", "h1", "h2", "h3", "h4", "h5", "h6",
    "hr", "section", "article", "header", "footer", "aside", "figure", "figcaption", "address",
  ]

  /// The lower-cased name of the tag whose `<` is just before `start` (`/p` for `</p>`).
  private static func tagName(_ scalars: [Unicode.Scalar], from start: Int) -> String {
    var name = String.UnicodeScalarView()
    var index = start
    if index < scalars.count, scalars[index] == "/" {
      name.append("/")
      index += 1
    }
    while index < scalars.count, name.count < 16,
      scalars[index].isASCIILetter || scalars[index].isASCIIDigit
    {
      name.append(scalars[index])
      index += 1
    }
    return String(name).lowercased()
  }

  /// Whether `text` (ASCII, lower-case) stands at `index`, compared without case.
  private static func starts(_ scalars: [Unicode.Scalar], at index: Int, with text: String)
    -> Bool
  {
    let pattern = Array(text.unicodeScalars)
    guard index + pattern.count <= scalars.count else { return false }
    return (0..<pattern.count).allSatisfy { offset in
      let scalar = scalars[index + offset]
      let lower = scalar.isASCIILetter ? Unicode.Scalar(scalar.value | 0x20)! : scalar
      return lower == pattern[offset]
    }
  }

  /// Just past the next `text` (case-insensitive) at or after `index`, or `nil`.
  private static func after(_ scalars: [Unicode.Scalar], _ text: String, from index: Int) -> Int? {
    let first = text.unicodeScalars.first!
    var cursor = index
    while cursor < scalars.count,
      let found = scalars[cursor...].firstIndex(where: {
        $0 == first || ($0.isASCIILetter && Unicode.Scalar($0.value | 0x20) == first)
      })
    {
      if starts(scalars, at: found, with: text) { return found + text.unicodeScalars.count }
      cursor = found + 1
    }
    return nil
  }

  /// `\r\n` and a lone `\r` as `\n`.
  private static func normalizingLineBreaks(_ text: String) -> String {
    guard text.utf8.contains(0x0D) else { return text }
    return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(
      of: "\r", with: "\n")
  }

  /// Whether the text after a `<` starts a tag (`<p`, `</p`, `<!--`).
  private static func startsTag(_ first: Unicode.Scalar) -> Bool {
    first.isASCIILetter || first == "/" || first == "!"
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
