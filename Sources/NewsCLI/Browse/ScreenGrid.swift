import FeedParsing
import NewsCore

/// A terminal screen as rows of cells: what ``BrowseRenderer`` draws and ``ScreenDiff`` compares.
struct ScreenGrid: Equatable {
  /// How a cell is drawn.
  struct Attributes: OptionSet, Equatable, Hashable {
    let rawValue: UInt8
    static let bold = Attributes(rawValue: 1)
    static let dim = Attributes(rawValue: 2)
    static let reverse = Attributes(rawValue: 4)
  }

  /// One column. A wide character takes its cell and an empty one after it (`text` "").
  struct Cell: Equatable {
    var text: String
    var attributes: Attributes
    static let blank = Cell(text: " ", attributes: [])
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
  mutating func put(_ text: String, row: Int, column: Int = 0, _ attributes: Attributes = [])
    -> Int
  {
    guard rows.indices.contains(row) else { return column }
    var column = column
    for character in text {
      let columns = TextWrapper.columns(of: character)
      guard columns > 0 else { continue }
      guard column + columns <= width else { break }
      rows[row][column] = Cell(text: String(character), attributes: attributes)
      if columns == 2 { rows[row][column + 1] = Cell(text: "", attributes: attributes) }
      column += columns
    }
    return column
  }

  /// Gives every cell of `row` from `column` on the attributes `attributes` too.
  mutating func highlight(row: Int, from column: Int = 0, _ attributes: Attributes) {
    guard rows.indices.contains(row) else { return }
    for index in column..<width { rows[row][index].attributes.formUnion(attributes) }
  }

  /// A row as plain text (tests read the screen this way).
  func text(_ row: Int) -> String {
    rows[row].map(\.text).joined()
  }
}
