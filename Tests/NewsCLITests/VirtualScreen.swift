import FeedParsing

/// What a terminal shows of `news browse`'s output: enough of a terminal to follow the cursor
/// moves, screen clears and text the program writes (styles are skipped). The diff writes only
/// the cells that changed, so a screen's text is read here, not in the bytes.
struct VirtualScreen {
  private(set) var rows: [[String]]
  private var row = 0
  private var column = 0
  /// The end of an escape sequence still to come.
  private var pending = ""

  init(width: Int, height: Int) {
    rows = Array(repeating: Array(repeating: " ", count: width), count: height)
  }

  /// The screen's text, a line a row.
  var text: String { rows.map { $0.joined() }.joined(separator: "\n") }

  mutating func feed(_ output: String) {
    var characters = Array(pending + output)
    pending = ""
    var index = 0
    while index < characters.count {
      let character = characters[index]
      guard character == "\u{1B}" else {
        put(character)
        index += 1
        continue
      }
      guard index + 1 < characters.count else {
        pending = String(characters[index...])
        return
      }
      guard characters[index + 1] == "[" else {
        index += 2
        continue
      }
      var end = index + 2
      while end < characters.count,
        !(characters[end].asciiValue.map { (0x40...0x7E).contains($0) } ?? false)
      {
        end += 1
      }
      guard end < characters.count else {
        pending = String(characters[index...])
        return
      }
      let parameters = String(characters[(index + 2)..<end])
      switch characters[end] {
      case "H":
        let numbers = parameters.split(separator: ";").map { Int($0) ?? 1 }
        row = max((numbers.first ?? 1) - 1, 0)
        column = max((numbers.count > 1 ? numbers[1] : 1) - 1, 0)
      case "J":
        for line in rows.indices {
          rows[line] = Array(repeating: " ", count: rows[line].count)
        }
      default:
        break
      }
      index = end + 1
    }
    characters.removeAll()
  }

  private mutating func put(_ character: Character) {
    guard rows.indices.contains(row) else { return }
    if character == "\r" || character == "\n" { return }
    let width = TextWrapper.columns(of: character)
    guard width > 0, column + width <= rows[row].count else { return }
    rows[row][column] = String(character)
    if width == 2 { rows[row][column + 1] = "" }
    column += width
  }
}
