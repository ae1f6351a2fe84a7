import Foundation
import NewsCore

/// A colour as `config.json` writes it: one of the 16 names (`red`, `bright-blue`), a number of
/// the 256-colour palette, `#rrggbb`, or `default` (the terminal's own).
enum TerminalColor: Hashable, Sendable {
  /// The terminal's default foreground or background.
  case terminalDefault
  /// 0–255: 0–7 the basic colours, 8–15 their bright forms, then the 6×6×6 cube and 24 greys.
  case indexed(Int)
  case rgb(UInt8, UInt8, UInt8)

  static let names = [
    "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
  ]

  /// Reads a colour of `config.json`; `nil` when it is none.
  init?(_ node: ConfigNode) {
    if let number = node.integer {
      guard (0...255).contains(number) else { return nil }
      self = .indexed(number)
      return
    }
    guard let text = node.text else { return nil }
    self.init(name: text)
  }

  /// Reads a colour's name (`red`, `bright-blue`, `#rrggbb`, `default`); `nil` when it is none.
  init?(name: String) {
    let text = name.lowercased()
    if text == "default" {
      self = .terminalDefault
      return
    }
    if let index = Self.names.firstIndex(of: text) {
      self = .indexed(index)
      return
    }
    for prefix in ["bright-", "bright"] where text.hasPrefix(prefix) {
      if let index = Self.names.firstIndex(of: String(text.dropFirst(prefix.count))) {
        self = .indexed(index + 8)
        return
      }
    }
    if text == "gray" || text == "grey" {
      self = .indexed(8)
      return
    }
    if text.hasPrefix("#"), text.count == 7, let value = UInt32(text.dropFirst(), radix: 16) {
      self = .rgb(UInt8(value >> 16), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF))
      return
    }
    return nil
  }

  /// Every name a colour may have, for suggestions.
  static var allNames: [String] {
    ["default", "gray"] + names + names.map { "bright-" + $0 }
  }

  /// The colour as red, green and blue (xterm's palette for the numbered ones).
  var components: (Int, Int, Int) {
    switch self {
    case .terminalDefault: return (0, 0, 0)
    case .rgb(let r, let g, let b): return (Int(r), Int(g), Int(b))
    case .indexed(let index):
      let basic: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
        (0, 205, 205), (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0),
        (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
      ]
      if index < 16 { return basic[index] }
      if index >= 232 {
        let grey = 8 + (index - 232) * 10
        return (grey, grey, grey)
      }
      let cube = index - 16
      let level = { (step: Int) in step == 0 ? 0 : 55 + step * 40 }
      return (level(cube / 36), level(cube / 6 % 6), level(cube % 6))
    }
  }

  /// The nearest of the palette colours `range` (`0..<16`, or the 256's own `16..<256`).
  func nearest(in range: Range<Int>) -> Int {
    if case .indexed(let index) = self, range.contains(index) { return index }
    let (r, g, b) = components
    var best = 0
    var bestDistance = Int.max
    for index in range {
      let (pr, pg, pb) = TerminalColor.indexed(index).components
      let distance = (pr - r) * (pr - r) + (pg - g) * (pg - g) + (pb - b) * (pb - b)
      if distance < bestDistance {
        best = index
        bestDistance = distance
      }
    }
    return best
  }
}
