/// A mark ``HTMLText/content(_:base:)`` puts after a link's text (`story[1]`): where it sits,
/// and which address of the text's `Links:` list it stands for.
package struct LinkMark: Equatable, Sendable {
  /// The mark's characters, brackets included.
  package var range: Range<String.Index>
  /// The address it stands for, from 1: `[1]` is the list's first.
  package var number: Int

  /// The marks of `text`, in order: a number of one to five digits, from 1, in brackets. What
  /// else is in brackets (`[image]`, `[a]`, `[0]`) is not a mark.
  package static func marks(in text: Substring) -> [LinkMark] {
    // Read as bytes: every character of a mark is ASCII (by characters, each `[` of a page
    // of articles cost a grapheme break search).
    var marks: [LinkMark] = []
    let bytes = text.utf8
    var rest = bytes.startIndex
    while let open = bytes[rest...].firstIndex(of: UInt8(ascii: "[")) {
      var cursor = bytes.index(after: open)
      var digits = 0
      var number = 0
      while cursor < bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[cursor])
      {
        if digits < 5 { number = number * 10 + Int(bytes[cursor] - UInt8(ascii: "0")) }
        digits += 1
        cursor = bytes.index(after: cursor)
      }
      rest = bytes.index(after: open)
      guard (1...5).contains(digits), cursor < bytes.endIndex, bytes[cursor] == UInt8(ascii: "]"),
        number > 0
      else { continue }
      let close = bytes.index(after: cursor)
      marks.append(LinkMark(range: open..<close, number: number))
      rest = close
    }
    return marks
  }
}
