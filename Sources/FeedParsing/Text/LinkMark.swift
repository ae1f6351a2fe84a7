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
    var marks: [LinkMark] = []
    var rest = text
    while let open = rest.firstIndex(of: "[") {
      let after = rest[rest.index(after: open)...]
      let digits = after.prefix { $0.isASCII && $0.isNumber }
      rest = after
      guard (1...5).contains(digits.count), digits.endIndex < after.endIndex,
        after[digits.endIndex] == "]", let number = Int(digits), number > 0
      else { continue }
      let close = after.index(after: digits.endIndex)
      marks.append(LinkMark(range: open..<close, number: number))
      rest = after[close...]
    }
    return marks
  }
}
