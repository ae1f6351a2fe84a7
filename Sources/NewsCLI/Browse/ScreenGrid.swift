import FeedParsing
import NewsCore

/// A terminal screen as rows of cells: what ``BrowseRenderer`` draws and ``ScreenDiff`` compares.
struct ScreenGrid: Equatable {
  /// One column, with its style. A wide character takes its cell and an empty one after it
  /// (`text` "").
  struct Cell: Equatable {
    var text: String
    var style: TextStyle
    static let blank = Cell(text: " ", style: .plain)
  }

  let width: Int
  let height: Int
  private(set) var rows: [[Cell]]

  init(width: Int, height: Int) {
    self.width = width
    self.height = height
    rows = Array(repeating: Array(repeating: .blank, count: width), count: height)
  }

  /// Writes `text` on `row` from `column`, cut at the right edge; returns the column after it.
  @discardableResult
  mutating func put(_ text: String, row: Int, column: Int = 0, _ style: TextStyle = .plain)
    -> Int
  {
    guard rows.indices.contains(row) else { return column }
    var column = column
    for character in text {
      let columns = TextWrapper.columns(of: character)
      guard columns > 0 else { continue }
      guard column + columns <= width else { break }
      rows[row][column] = Cell(text: String(character), style: style)
      if columns == 2 { rows[row][column + 1] = Cell(text: "", style: style) }
      column += columns
    }
    return column
  }

  /// Puts `text` as ``put(_:row:column:_:)`` does; what does not fit ends with `mark` (`…`) in
  /// the last column, so that a cut line says it was cut.
  @discardableResult
  mutating func put(
    _ text: String, row: Int, column: Int, _ style: TextStyle, cutMark mark: String
  ) -> Int {
    let room = width - column
    guard TextWrapper.columns(text[...]) > room, room > mark.count else {
      return put(text, row: row, column: column, style)
    }
    var kept = ""
    var used = 0
    for character in text {
      let columns = TextWrapper.columns(of: character)
      guard used + columns <= room - mark.count else { break }
      kept.append(character)
      used += columns
    }
    return put(kept + mark, row: row, column: column, style)
  }

  /// Lays `style` over every cell of `row` from `column` to `end` (the row's end by default).
  mutating func highlight(row: Int, from column: Int = 0, to end: Int? = nil, _ style: TextStyle) {
    guard rows.indices.contains(row) else { return }
    let end = min(end ?? width, width)
    guard column < end else { return }
    for index in max(column, 0)..<end {
      rows[row][index].style = rows[row][index].style.with(style)
    }
  }

  /// A row as plain text (tests read the screen this way).
  func text(_ row: Int) -> String {
    rows[row].map(\.text).joined()
  }
}
