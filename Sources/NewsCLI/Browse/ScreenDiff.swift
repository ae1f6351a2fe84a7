/// What reaches the terminal: the cells of `new` that differ from `old` (all of them when there
/// is no `old`, or the size changed), each run of changed cells written at its place with its
/// styles. Cells that did not change are not written at all: no flicker, and little to send
/// over ssh; a style is changed by only the codes that differ from the one before it.
enum ScreenDiff {
  static func ansi(
    from old: ScreenGrid?, to new: ScreenGrid, styled: Bool, depth: ColorDepth = .basic
  ) -> String {
    let full = old == nil || old?.width != new.width || old?.height != new.height
    var out = full ? "\u{1B}[H\u{1B}[2J" : ""
    for row in 0..<new.height {
      let cells = new.rows[row]
      // The runs of changed cells; unchanged gaps shorter than a cursor move are rewritten.
      var runs: [Range<Int>] = []
      if full {
        runs = [0..<cells.count]
      } else if let previous = old?.rows[row], previous != cells {
        var start: Int?
        var lastChanged = -1
        for column in 0..<cells.count where previous[column] != cells[column] {
          if let begun = start, column - lastChanged > 8 {
            runs.append(begun..<(lastChanged + 1))
            start = column
          } else if start == nil {
            start = column
          }
          lastChanged = column
        }
        if let start { runs.append(start..<(lastChanged + 1)) }
      }
      for run in runs {
        // A wide character's second cell is written with its first.
        var first = run.lowerBound
        while first > 0, cells[first].text.isEmpty { first -= 1 }
        out += "\u{1B}[\(row + 1);\(first + 1)H"
        var current = TextStyle.plain
        for cell in cells[first..<run.upperBound] {
          let style = styled ? drawn(cell.style, depth: depth) : .plain
          if style != current {
            out += sgr(from: current, to: style, depth: depth)
            current = style
          }
          out += cell.text
        }
        if current != .plain { out += "\u{1B}[0m" }
      }
    }
    return out
  }

  /// The style as the terminal can draw it: resolved, without colours at depth `none`.
  static func drawn(_ style: TextStyle, depth: ColorDepth) -> TextStyle {
    var style = style.resolved
    if depth == .none {
      style.foreground = nil
      style.background = nil
    }
    return style
  }

  /// The escape sequence from `old` to `new` (both resolved): only what changes, or a reset and
  /// all of `new` when something must be turned off.
  static func sgr(from old: TextStyle, to new: TextStyle, depth: ColorDepth) -> String {
    let flags: [(KeyPath<TextStyle, Bool?>, String)] = [
      (\.bold, "1"), (\.dim, "2"), (\.italic, "3"), (\.underline, "4"), (\.reverse, "7"),
    ]
    let turnsOff =
      flags.contains { old[keyPath: $0.0] == true && new[keyPath: $0.0] != true }
      || (old.foreground != nil && new.foreground == nil)
      || (old.background != nil && new.background == nil)
    let base = turnsOff ? TextStyle.plain : old
    var codes = turnsOff ? ["0"] : []
    for (flag, code) in flags where new[keyPath: flag] == true && base[keyPath: flag] != true {
      codes.append(code)
    }
    if let color = new.foreground, color != base.foreground {
      codes.append(self.color(color, background: false, depth: depth))
    }
    if let color = new.background, color != base.background {
      codes.append(self.color(color, background: true, depth: depth))
    }
    return codes.isEmpty ? "" : "\u{1B}[" + codes.joined(separator: ";") + "m"
  }

  /// The code of a colour at `depth`: the nearest the terminal has.
  static func color(_ color: TerminalColor, background: Bool, depth: ColorDepth) -> String {
    let base = background ? 40 : 30
    let bright = background ? 100 : 90
    func indexed(_ index: Int) -> String {
      index < 8
        ? "\(base + index)" : index < 16 ? "\(bright + index - 8)" : "\(base + 8);5;\(index)"
    }
    switch (color, depth) {
    case (.terminalDefault, _): return "\(base + 9)"
    case (.rgb(let r, let g, let b), .trueColor): return "\(base + 8);2;\(r);\(g);\(b)"
    case (_, .trueColor), (_, .palette256):
      if case .indexed(let index) = color { return indexed(index) }
      return indexed(color.nearest(in: 16..<256))
    case (_, .sixteen):
      return indexed(color.nearest(in: 0..<16))
    case (_, .basic), (_, .none):
      return "\(base + color.nearest(in: 0..<16) % 8)"
    }
  }
}
