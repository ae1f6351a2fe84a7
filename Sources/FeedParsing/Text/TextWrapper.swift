/// Wraps text to a width in terminal columns.
public enum TextWrapper {
  /// Splits `text` into lines of at most `width` columns, breaking at spaces; a word longer than
  /// the width is cut. Existing line breaks are kept.
  ///
  /// Linear in the length of `text`: each character is measured once, however long its word.
  public static func wrap(_ text: String, width: Int) -> [String] {
    wrap(text, width: width, asciiFastPath: true)
  }

  /// Whether `text` is one line of ``wrap(_:width:)`` as it is (printable ASCII, single spaces,
  /// no wider than `width`): a caller can then use it without the array of lines.
  package static func fits(_ text: String, width: Int) -> Bool {
    fitsAsItIs(text, width: max(width, 10))
  }

  /// ``wrap(_:width:)``, with the ASCII fast path switchable for tests.
  package static func wrap(_ text: String, width: Int, asciiFastPath: Bool) -> [String] {
    let width = max(width, 10)
    var lines: [String] = []
    if asciiFastPath, fitsAsItIs(text, width: width) { return [text] }
    if asciiFastPath, text.isPrintableASCII(allowingNewlines: true) {
      // Printable ASCII and line breaks, most text: paragraphs and words found on the bytes.
      for paragraph in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
        // Only a quote (`>`) or a numbered item (a digit) can be marked: checked by its first byte.
        if let first = paragraph.first, first == UInt8(ascii: ">") || (0x30...0x39).contains(first),
          wrapMarked(Substring(paragraph), width: width, asciiFastPath: true, into: &lines)
        {
          continue
        }
        wrapASCII(paragraph, width: width, into: &lines)
      }
      return lines
    }
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if wrapMarked(paragraph, width: width, asciiFastPath: asciiFastPath, into: &lines) {
        continue
      }
      if asciiFastPath, paragraph.isPrintableASCII() {
        wrapASCII(paragraph.utf8, width: width, into: &lines)
      } else {
        wrapCharacters(paragraph, width: width, into: &lines)
      }
    }
    return lines
  }

  /// A quoted line (`> `, once a level) wrapped with its mark on every line, or a list item
  /// (`• `, or `3. `, indented with unbreakable spaces) with its continuation lines hanging under
  /// its text; `false` (nothing added) for any other paragraph.
  private static func wrapMarked(
    _ paragraph: Substring, width: Int, asciiFastPath: Bool, into lines: inout [String]
  ) -> Bool {
    var rest = paragraph
    var quote = ""
    while rest.hasPrefix("> ") {
      quote += "> "
      rest = rest.dropFirst(2)
    }
    var first = quote
    var next = quote
    let indent = rest.prefix { $0 == "\u{A0}" }
    let afterIndent = rest.dropFirst(indent.count)
    let digits = afterIndent.prefix { $0.isASCII && $0.isNumber }
    if afterIndent.hasPrefix("• ") {
      first += indent + "• "
      next += String(repeating: " ", count: indent.count + 2)
      rest = afterIndent.dropFirst(2)
    } else if !digits.isEmpty, digits.count <= 3,
      afterIndent.dropFirst(digits.count).hasPrefix(". ")
    {
      first += indent + digits + ". "
      next += String(repeating: " ", count: indent.count + digits.count + 2)
      rest = afterIndent.dropFirst(digits.count + 2)
    }
    guard !first.isEmpty else { return false }
    let inner = wrap(
      String(rest), width: max(width - columns(Substring(first)), 10),
      asciiFastPath: asciiFastPath)
    for (index, line) in inner.enumerated() {
      lines.append((index == 0 ? first : next) + line)
    }
    return true
  }

  /// Wraps one paragraph character by character, measuring each one's columns.
  private static func wrapCharacters(_ paragraph: Substring, width: Int, into lines: inout [String])
  {
    var line = ""
    var lineWidth = 0
    for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
      let wordWidth = columns(word)
      if lineWidth > 0, lineWidth + 1 + wordWidth <= width {
        line += " "
        line += word
        lineWidth += 1 + wordWidth
        continue
      }
      if lineWidth > 0 {
        lines.append(line)
        line = ""
        lineWidth = 0
      }
      guard wordWidth > width, !isLink(word.utf8) else {
        // A link wider than the line stands on a line of its own, whole: a link cut in two
        // opens nothing.
        line = String(word)
        lineWidth = wordWidth
        continue
      }
      // A word wider than the line: cut into full lines, the rest starts the next line. Text
      // without spaces (Chinese, Japanese) is cut so, and as its typesetting rules ask (kinsoku):
      // no line starts with closing punctuation (`、`, `。`, `」`) nor ends with an opening one
      // (`「`): the character before goes down with it.
      for character in word {
        let characterWidth = columns(of: character)
        if lineWidth > 0, lineWidth + characterWidth > width {
          var kept = line
          var carried = ""
          if noLineStart.contains(character) || kept.last.map(noLineEnd.contains) == true,
            kept.count > 1
          {
            carried = String(kept.removeLast())
          }
          while kept.count > 1, let last = kept.last, noLineEnd.contains(last) {
            carried = String(kept.removeLast()) + carried
          }
          var carriedWidth = columns(Substring(carried))
          if carriedWidth + characterWidth > width {
            // The rules yield to the width (a line of nothing but opening quotes).
            (kept, carried, carriedWidth) = (line, "", 0)
          }
          lines.append(kept)
          line = carried
          lineWidth = carriedWidth
        }
        line.append(character)
        lineWidth += characterWidth
      }
    }
    lines.append(line)
  }

  /// Characters that may not start a line in Chinese and Japanese text: closing brackets and
  /// quotes, the full stop and comma, small kana, the prolonged sound mark.
  static let noLineStart: Set<Character> = Set(
    "、。，．・：；？！）］｝〕〉》」』】〙〗〟’”ゝゞ々ーぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ…‥")
  /// Characters that may not end a line: opening brackets and quotes.
  static let noLineEnd: Set<Character> = Set("（［｛〔〈《「『【〘〖〝‘“")

  /// ``wrap(_:width:)`` for a paragraph of printable ASCII: one column a byte, words found and
  /// lines built on the bytes.
  private static func wrapASCII(
    _ paragraph: Substring.UTF8View, width: Int, into lines: inout [String]
  ) {
    var line: [UInt8] = []
    line.reserveCapacity(min(width, 512))
    var index = paragraph.startIndex
    let end = paragraph.endIndex
    while index < end {
      guard paragraph[index] != 0x20 else {
        index = paragraph.index(after: index)
        continue
      }
      var wordEnd = index
      while wordEnd < end, paragraph[wordEnd] != 0x20 { wordEnd = paragraph.index(after: wordEnd) }
      let word = paragraph[index..<wordEnd]
      index = wordEnd
      if !line.isEmpty, line.count + 1 + word.count <= width {
        line.append(0x20)
        line.append(contentsOf: word)
        continue
      }
      if !line.isEmpty {
        lines.append(String(decoding: line, as: UTF8.self))
        line.removeAll(keepingCapacity: true)
      }
      // A word wider than the line is cut into full lines; the rest starts the next line. A
      // link never is: it stands whole on a line of its own.
      var rest = word[...]
      // Decided once for the whole word, as the character path decides it.
      let link = isLink(word)
      while rest.count > width, !link {
        let cut = rest.index(rest.startIndex, offsetBy: width)
        lines.append(String(decoding: rest[..<cut], as: UTF8.self))
        rest = rest[cut...]
      }
      line.append(contentsOf: rest)
    }
    lines.append(String(decoding: line, as: UTF8.self))
  }

  /// Whether `text` is its own one wrapped line: printable ASCII on one line, no wider than
  /// `width`, with no space to collapse or trim and no mark a quote or list item begins with (a
  /// title, most often).
  private static func fitsAsItIs(_ text: String, width: Int) -> Bool {
    let bytes = text.utf8
    guard bytes.count <= width, let first = bytes.first, let last = bytes.last,
      first != 0x20, last != 0x20, first != UInt8(ascii: ">"), !(0x30...0x39).contains(first)
    else { return false }
    func printableSingleSpaced(_ bytes: some Sequence<UInt8>) -> Bool {
      var previous: UInt8 = 0
      for byte in bytes {
        guard byte >= 0x20, byte < 0x7F, !(byte == 0x20 && previous == 0x20) else { return false }
        previous = byte
      }
      return true
    }
    return bytes.withContiguousStorageIfAvailable(printableSingleSpaced)
      ?? printableSingleSpaced(bytes)
  }

  /// Whether a word is a link (`https://…`, `[3] https://…` in a Links list, `<https://…>`):
  /// `://` within its first 16 bytes.
  static func isLink(_ word: some Collection<UInt8>) -> Bool {
    var previous: (UInt8, UInt8) = (0, 0)
    for byte in word.prefix(16) {
      if previous == (UInt8(ascii: ":"), UInt8(ascii: "/")), byte == UInt8(ascii: "/") {
        return true
      }
      previous = (previous.1, byte)
    }
    return false
  }

  /// `text` cut to at most `maximum` characters, ending with `…` when it was cut: very long fields
  /// are shortened for the terminal (never in JSON).
  public static func shortened(_ text: String, to maximum: Int) -> String {
    guard maximum > 0 else { return "" }
    // No more bytes than the maximum means no more characters either.
    if text.utf8.count <= maximum { return text }
    var end = text.startIndex
    var count = 0
    while end < text.endIndex {
      if count == maximum { return text[..<text.index(before: end)] + "…" }
      end = text.index(after: end)
      count += 1
    }
    return text
  }

  /// At most `count` lines of `text` wrapped to `width`; when more would follow, the last line
  /// ends with `…`.
  public static func firstLines(_ text: String, width: Int, count: Int) -> [String] {
    let lines = wrap(text, width: width)
    guard lines.count > count else { return lines }
    var kept = Array(lines.prefix(count))
    var last = kept[count - 1]
    while columns(Substring(last)) + 1 > max(width, 10), !last.isEmpty { last.removeLast() }
    kept[count - 1] = last + "…"
    return kept
  }

  /// The number of terminal columns `text` takes: 2 for wide (East Asian, emoji) characters,
  /// 0 for combining marks.
  public static func columns(_ text: Substring) -> Int {
    // Printable ASCII, most text: one column a byte.
    if text.isPrintableASCII() { return text.utf8.count }
    var total = 0
    for character in text {
      total += columns(of: character)
    }
    return total
  }

  /// The columns one character takes: 2 for wide ones, 0 for combining marks, else 1.
  public static func columns(of character: Character) -> Int {
    guard let scalar = character.unicodeScalars.first else { return 0 }
    let value = scalar.value
    if scalar.properties.generalCategory == .nonspacingMark { return 0 }
    if (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value)
      || (0xAC00...0xD7A3).contains(value) || (0xF900...0xFAFF).contains(value)
      || (0xFE30...0xFE4F).contains(value) || (0xFF00...0xFF60).contains(value)
      || (0xFFE0...0xFFE6).contains(value) || (0x1F300...0x1FAFF).contains(value)
      || (0x20000...0x3FFFD).contains(value)
    {
      return 2
    }
    return 1
  }
}
