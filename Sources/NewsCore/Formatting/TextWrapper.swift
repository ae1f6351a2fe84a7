/// Wraps text to a width in terminal columns.
public enum TextWrapper {
  /// Splits `text` into lines of at most `width` columns, breaking at spaces; a word longer than
  /// the width is cut. Existing line breaks are kept.
  public static func wrap(_ text: String, width: Int) -> [String] {
    let width = max(width, 10)
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = ""
      var lineWidth = 0
      for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
        var word = Substring(word)
        var wordWidth = columns(word)
        if lineWidth > 0, lineWidth + 1 + wordWidth > width {
          lines.append(line)
          line = ""
          lineWidth = 0
        }
        while wordWidth > width {
          let (head, rest) = split(word, at: width - lineWidth - (lineWidth > 0 ? 1 : 0))
          line += (lineWidth > 0 ? " " : "") + head
          lines.append(line)
          line = ""
          lineWidth = 0
          word = rest
          wordWidth = columns(word)
        }
        if lineWidth > 0 {
          line += " "
          lineWidth += 1
        }
        line += word
        lineWidth += wordWidth
      }
      lines.append(line)
    }
    return lines
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
    var total = 0
    for character in text {
      total += columns(of: character)
    }
    return total
  }

  static func columns(of character: Character) -> Int {
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

  private static func split(_ word: Substring, at width: Int) -> (Substring, Substring) {
    var used = 0
    var index = word.startIndex
    while index < word.endIndex {
      let next = used + columns(of: word[index])
      if next > max(width, 1) { break }
      used = next
      index = word.index(after: index)
    }
    if index == word.startIndex { index = word.index(after: index) }
    return (word[..<index], word[index...])
  }
}
