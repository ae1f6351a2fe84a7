import Foundation

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
  package static func isPlain(_ text: String) -> Bool {
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
  /// At most ``maximumLength``, as what HTML becomes.
  public static func tidy(_ text: String) -> String {
    bounded(collapse(normalizingLineBreaks(text)))
  }

  /// The full cleaning: tags removed (script, style, noscript and comments with everything in
  /// them), block elements ending lines, then references decoded (so `&lt;b&gt;` stays the text
  /// `<b>`). One pass over the UTF-8 bytes: everything it looks for is ASCII.
  package static func cleaned(_ text: String, images: Bool = false, base: URL? = nil) -> String {
    // With `images` (an article's content), links are numbered in the text and listed below,
    // each numbered once (found by a dictionary: a page of 100,000 links stays linear).
    var links: [String] = []
    var linkNumbers: [String: Int] = [:]
    // Content keeps its structure: list items bulleted or numbered (nested ones indented),
    // quotes marked, preformatted text as it is (its spaces unbreakable, so nothing collapses
    // or wraps them). The quote marks are control bytes placed now and turned into `> ` once
    // the text is collapsed; any in the input are dropped first.
    let bytes =
      images
      ? Array(text.utf8).filter { $0 != Self.quoteOpen && $0 != Self.quoteClose } : Array(text.utf8)
    var lists: [Int?] = []
    var preformatted = 0
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = 0
    // Once a search for `>` has failed, none follows: the text is scanned at most once more.
    var closingBracketAhead = true
    var pendingLink: Int?
    // Where the open link's text begins in `out`.
    var linkTextStart = 0
    // Markup (a tag in it) follows HTML's rule: a line break in its text is a space, and only
    // elements break lines; text with no tag keeps its line breaks (a provider's plain text).
    let isMarkup = bytes.indices.contains { index in
      bytes[index] == UInt8(ascii: "<") && index + 1 < bytes.count && startsTag(bytes[index + 1])
    }
    /// Text as it stands, or with its spaces unbreakable inside `<pre>`.
    func append(_ text: ArraySlice<UInt8>) {
      guard preformatted > 0 else {
        if isMarkup, text.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
          out += text.map { $0 == 0x0A || $0 == 0x0D || $0 == 0x09 ? 0x20 : $0 }
        } else {
          out += text
        }
        return
      }
      for byte in text {
        switch byte {
        case 0x20: out += [0xC2, 0xA0]
        // A tab: four columns.
        case 0x09: out += [0xC2, 0xA0, 0xC2, 0xA0, 0xC2, 0xA0, 0xC2, 0xA0]
        default: out.append(byte)
        }
      }
    }
    // A table's cells stand between bars on their row's line (`Name | Value`), as an extracted
    // article's do: a bar is put before a cell when its row has text on that line already, and
    // taken back if the cell holds none.
    var cellStart: Int?
    var barAt: Int?
    func endCell() {
      if let start = cellStart, let bar = barAt, !hasText(out[min(start, out.count)...]) {
        out.removeSubrange(min(bar, out.count)...)
      }
      (cellStart, barAt) = (nil, nil)
    }
    // What one text may become is bounded (``maximumLength``): past twice that (before spaces
    // collapse) nothing more is read.
    while index < bytes.count, out.count < 2 * maximumLength {
      guard let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) else {
        append(bytes[index...])
        break
      }
      append(bytes[index..<open])
      index = open
      guard closingBracketAhead, index + 1 < bytes.count, startsTag(bytes[index + 1]) else {
        out.append(UInt8(ascii: "<"))
        index += 1
        continue
      }
      if starts(bytes, at: index, with: "<!--") {
        index = after(bytes, "-->", from: index + 4) ?? bytes.count
        continue
      }
      guard let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else {
        closingBracketAhead = false
        out.append(UInt8(ascii: "<"))
        index += 1
        continue
      }
      let name = tagName(bytes, from: index + 1)
      let element = name.hasPrefix("/") ? String(name.dropFirst()) : name
      index = close + 1
      if rawTextElements.contains(name) {
        // Everything up to its end tag is code or metadata, never text.
        index =
          after(bytes, "</" + name, from: index).map { end in
            (bytes[end...].firstIndex(of: UInt8(ascii: ">")) ?? bytes.count - 1) + 1
          } ?? bytes.count
      } else if images, name == "a",
        let href = attribute("href", in: bytes[(open + 2)..<close]).map({
          FeedLinks.resolve($0, against: base)
        }),
        FeedLinks.isWebLink(href)
      {
        if let number = linkNumbers[href] {
          pendingLink = number
        } else {
          links.append(href)
          linkNumbers[href] = links.count
          pendingLink = links.count
        }
        linkTextStart = out.count
      } else if images, name == "/a", let number = pendingLink {
        // A link whose text is a mark already (`<a href>[2]</a>`, as `news serve` writes them)
        // is this text's mark alone, not `[2][1]`.
        if Self.isMark(out[min(linkTextStart, out.count)...]) {
          out.removeSubrange(min(linkTextStart, out.count)...)
        }
        out += Array("[\(number)]".utf8)
        pendingLink = nil
      } else if images, element == "ul" || element == "ol" {
        if name.hasPrefix("/") {
          if !lists.isEmpty { lists.removeLast() }
        } else {
          lists.append(name == "ol" ? 0 : nil)
        }
        // A list nested in an item goes on with its items: only the outer one is a paragraph.
        if lists.count <= (name.hasPrefix("/") ? 0 : 1) { out += [0x0A, 0x0A] }
      } else if images, name == "li" {
        // `• item` or `3. item`, indented two unbreakable spaces a level below the first, down
        // to ``maximumIndent`` levels (deeper lists stand at that indent).
        var marker = "• "
        if let last = lists.last, let number = last {
          lists[lists.count - 1] = number + 1
          marker = "\(number + 1). "
        }
        out.append(0x0A)
        for _ in 0..<min(max(lists.count - 1, 0), maximumIndent) {
          out += [0xC2, 0xA0, 0xC2, 0xA0]
        }
        out += Array(marker.utf8)
      } else if images, element == "blockquote" {
        out += [0x0A, 0x0A, name.hasPrefix("/") ? Self.quoteClose : Self.quoteOpen]
      } else if images, element == "pre" {
        preformatted = max(0, preformatted + (name.hasPrefix("/") ? -1 : 1))
        out += [0x0A, 0x0A]
      } else if images, name == "img" {
        // An image in an article's body is a mark in its text: `[image: the alt text]`.
        let alt = attribute("alt", in: bytes[(open + 4)..<close])
        out += Array((alt.map { "[image: \($0)]" } ?? "[image]").utf8)
      } else if element == "td" || element == "th" {
        endCell()
        guard !name.hasPrefix("/") else { continue }
        if Self.textOnLine(out) {
          barAt = out.count
          out += Array(" | ".utf8)
        }
        cellStart = out.count
      } else if lineElements.contains(name) {
        if element == "tr" { endCell() }
        out.append(0x0A)
      } else if blockElements.contains(element) {
        if element == "table" { endCell() }
        out += [0x0A, 0x0A]
      }
    }
    // `&nbsp;` spaces text out as a space does (and collapses with it).
    let decoded = XMLTokenizer.decodingReferences(out[...], nbspAsSpace: true)
    var text = collapse(removingCharsMarker(normalizingLineBreaks(decoded)))
    if images { text = markingQuotes(text) }
    if !links.isEmpty {
      text +=
        "\n\nLinks:\n"
        + links.enumerated().map { "[\($0.offset + 1)] \($0.element)" }.joined(separator: "\n")
    }
    return bounded(text)
  }

  /// Whether `bytes` hold text: more than spaces, line breaks and `&nbsp;`.
  private static func hasText(_ bytes: ArraySlice<UInt8>) -> Bool {
    var index = bytes.startIndex
    while index < bytes.endIndex {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      case 0xC2 where index + 1 < bytes.endIndex && bytes[index + 1] == 0xA0: index += 2
      case UInt8(ascii: "&") where bytes[index...].starts(with: "&nbsp;".utf8): index += 6
      default: return true
      }
    }
    return false
  }

  /// Whether the last line of `out` holds text already (a cell after it needs a bar).
  private static func textOnLine(_ out: [UInt8]) -> Bool {
    let start = (out.lastIndex(of: 0x0A) ?? -1) + 1
    return hasText(out[start...])
  }

  /// `[12]`: one to five digits in brackets, as a link's mark is written.
  private static func isMark(_ bytes: ArraySlice<UInt8>) -> Bool {
    bytes.count >= 3 && bytes.count <= 7 && bytes.first == UInt8(ascii: "[")
      && bytes.last == UInt8(ascii: "]")
      && bytes.dropFirst().dropLast().allSatisfy {
        $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")
      }
  }

  /// The most UTF-8 bytes one text (an item's content, an article) becomes: 1 MiB. What is
  /// longer is cut at a character and ends with ``cutMark``.
  package static let maximumLength = 1 << 20
  /// What ends a text cut at ``maximumLength``.
  package static let cutMark = "\n\n[… cut: the text was longer than 1 MiB]"
  /// How many levels of nested lists are indented (deeper ones stand at this indent).
  package static let maximumIndent = 6
  /// How many levels of nested quotes are marked (`> > …`, deeper ones marked this often).
  package static let maximumQuoteDepth = 6

  /// `text`, cut to at most ``maximumLength`` bytes (the mark included) at a character boundary.
  package static func bounded(_ text: String) -> String {
    guard text.utf8.count > maximumLength else { return text }
    var end = text.utf8.index(text.utf8.startIndex, offsetBy: maximumLength - cutMark.utf8.count)
    // Back to the first byte of a character (never inside one's UTF-8).
    while end > text.utf8.startIndex, text.utf8[end] & 0xC0 == 0x80 {
      end = text.utf8.index(before: end)
    }
    return String(text[..<end]) + cutMark
  }

  private static let quoteOpen: UInt8 = 0x01
  private static let quoteClose: UInt8 = 0x02

  /// The lines between a quote's marks start with `> ` (once a level); the marks, which stand
  /// at the start of the lines they apply from, go. Blank lines stay unmarked.
  private static func markingQuotes(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == quoteOpen || $0 == quoteClose }) else { return text }
    var depth = 0
    var lines: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var body = String.UnicodeScalarView()
      for scalar in line.unicodeScalars {
        switch scalar.value {
        case UInt32(quoteOpen): depth += 1
        case UInt32(quoteClose): depth = max(0, depth - 1)
        default: body.append(scalar)
        }
      }
      let kept = String(body).trimmingCharacters(in: CharacterSet(charactersIn: " "))
      if kept.isEmpty {
        if lines.last?.isEmpty == false { lines.append("") }
      } else {
        lines.append(String(repeating: "> ", count: min(depth, maximumQuoteDepth)) + kept)
      }
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines.joined(separator: "\n")
  }

  /// The links ``content(_:base:)`` listed at the end of `text` (`[1] https://…`), in order:
  /// what `news open <id> 2` opens.
  public static func links(in text: String) -> [String] {
    guard let range = text.lastRange(ofBytes: "\n\nLinks:\n") else { return [] }
    var links: [String] = []
    for line in text[range.upperBound...].split(separator: "\n") {
      let prefix = "[\(links.count + 1)] "
      guard line.hasPrefix(prefix) else { break }
      links.append(String(line.dropFirst(prefix.count)))
    }
    return links
  }

  /// HTML made plain as ``plain(_:)`` makes it, images kept as `[image]` (or `[image: alt]`)
  /// and links numbered (`text[1]`) and listed at the end (`[1] https://…`, relative ones
  /// resolved against `base`): for an article's full content, as `show` prints it.
  package static func content(_ text: String, base: URL? = nil) -> String {
    isPlain(text) ? text : cleaned(text, images: true, base: base)
  }

  /// Whether ``content(_:base:)`` shows more of `text` than ``plain(_:)`` does: it holds a link,
  /// an image, a list item, a quote or preformatted text (each only ever a mark or a line in
  /// plain text).
  package static func hasContentMarkup(_ text: String) -> Bool {
    // Read in place, a tag's name packed into a number: this runs on every item's summary as a
    // feed is read.
    var text = text
    return text.withUTF8 { bytes in
      var index = 0
      while index < bytes.count {
        guard bytes[index] == UInt8(ascii: "<") else {
          index += 1
          continue
        }
        index += 1
        var name: UInt64 = 0
        var length = 0
        while index < bytes.count, isASCIILetterOrDigit(bytes[index]) {
          if length < 8 { name |= UInt64(bytes[index] | 0x20) << (8 * length) }
          length += 1
          index += 1
        }
        if contentMarkup.contains(where: { $0 == (name, length) }) { return true }
      }
      return false
    }
  }

  /// The start tags ``content(_:base:)`` shows and ``plain(_:)`` does not: each name's first
  /// eight bytes, lower-case, packed as ``hasContentMarkup(_:)`` packs them, and its length.
  private static let contentMarkup: [(UInt64, Int)] = ["a", "img", "li", "blockquote", "pre"]
    .map { tag in
      (
        tag.utf8.prefix(8).enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * $1.offset) },
        tag.utf8.count
      )
    }

  /// The value of attribute `name` (lower-case) inside a tag's bytes, if it has a non-blank one.
  private static func attribute(_ name: String, in tag: ArraySlice<UInt8>) -> String? {
    var tokenizer = XMLTokenizer(Array("<x ".utf8) + tag + Array(">".utf8))
    guard case .start(let start) = tokenizer.next(), let value = start.attribute(name) else {
      return nil
    }
    let words = value.split(whereSeparator: \.isWhitespace)
    return words.isEmpty ? nil : words.joined(separator: " ")
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
  private static func tagName(_ bytes: [UInt8], from start: Int) -> String {
    var name: [UInt8] = []
    var index = start
    if index < bytes.count, bytes[index] == UInt8(ascii: "/") {
      name.append(UInt8(ascii: "/"))
      index += 1
    }
    while index < bytes.count, name.count < 16, isASCIILetterOrDigit(bytes[index]) {
      name.append(bytes[index] | (bytes[index] >= 0x41 && bytes[index] <= 0x5A ? 0x20 : 0))
      index += 1
    }
    return String(decoding: name, as: UTF8.self)
  }

  private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
    (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
      || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
  }

  /// Whether `text` (ASCII, lower-case) stands at `index`, compared without case.
  private static func starts(_ bytes: [UInt8], at index: Int, with text: String) -> Bool {
    let pattern = Array(text.utf8)
    guard index + pattern.count <= bytes.count else { return false }
    return (0..<pattern.count).allSatisfy { offset in
      let byte = bytes[index + offset]
      return (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == pattern[offset]
    }
  }

  /// Just past the next `text` (case-insensitive) at or after `index`, or `nil`.
  private static func after(_ bytes: [UInt8], _ text: String, from index: Int) -> Int? {
    let first = text.utf8.first!
    var cursor = index
    while cursor < bytes.count,
      let found = bytes[cursor...].firstIndex(where: { $0 == first || $0 | 0x20 == first })
    {
      if starts(bytes, at: found, with: text) { return found + text.utf8.count }
      cursor = found + 1
    }
    return nil
  }

  /// `\r\n` and a lone `\r` as `\n`.
  private static func normalizingLineBreaks(_ text: String) -> String {
    guard text.containsByte(0x0D) else { return text }
    return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(
      of: "\r", with: "\n")
  }

  /// Whether the byte after a `<` starts a tag (`<p`, `</p`, `<!--`).
  private static func startsTag(_ first: UInt8) -> Bool {
    (first | 0x20 >= UInt8(ascii: "a") && first | 0x20 <= UInt8(ascii: "z"))
      || first == UInt8(ascii: "/") || first == UInt8(ascii: "!")
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

  /// Runs of spaces become one, lines lose the spaces at their ends, and more than one blank
  /// line becomes one (none at the start or the end). One pass over the bytes.
  private static func collapse(_ text: String) -> String {
    var text = text
    let out = text.withUTF8 { bytes -> [UInt8]? in
      var out: [UInt8] = []
      out.reserveCapacity(bytes.count)
      var pendingSpace = false
      var pendingBreaks = 0
      for byte in bytes {
        switch byte {
        case 0x20:
          pendingSpace = true
        case 0x0A:
          pendingSpace = false
          pendingBreaks += 1
        default:
          if !out.isEmpty {
            if pendingBreaks > 0 {
              out.append(0x0A)
              if pendingBreaks > 1 { out.append(0x0A) }
            } else if pendingSpace {
              out.append(0x20)
            }
          }
          pendingSpace = false
          pendingBreaks = 0
          out.append(byte)
        }
      }
      // Only spaces and line breaks are ever dropped: as many bytes is the same text.
      return out.count == bytes.count ? nil : out
    }
    guard let out else { return text }
    return String(decoding: out, as: UTF8.self)
  }
}
