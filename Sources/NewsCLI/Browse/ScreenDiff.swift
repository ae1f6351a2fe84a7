/// What reaches the terminal: the rows of `new` that differ from `old` (all of them when there is
/// no `old`, or the size changed), each written whole at its place with its attributes. Rows that
/// did not change are not written at all: no flicker, and little to send over ssh.
enum ScreenDiff {
  static func ansi(from old: ScreenGrid?, to new: ScreenGrid, styled: Bool) -> String {
    let full = old == nil || old?.width != new.width || old?.height != new.height
    var out = full ? "\u{1B}[H\u{1B}[2J" : ""
    for row in 0..<new.height where full || old?.rows[row] != new.rows[row] {
      out += "\u{1B}[\(row + 1);1H"
      var current = ScreenGrid.Attributes()
      for cell in new.rows[row] {
        if styled, cell.attributes != current {
          out += sgr(cell.attributes)
          current = cell.attributes
        }
        out += cell.text
      }
      if styled, !current.isEmpty { out += "\u{1B}[0m" }
    }
    return out
  }

  private static func sgr(_ attributes: ScreenGrid.Attributes) -> String {
    var codes = ["0"]
    if attributes.contains(.bold) { codes.append("1") }
    if attributes.contains(.dim) { codes.append("2") }
    if attributes.contains(.reverse) { codes.append("7") }
    return "\u{1B}[" + codes.joined(separator: ";") + "m"
  }
}
