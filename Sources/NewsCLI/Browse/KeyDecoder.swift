/// Turns the bytes a terminal sends into keys. Escape sequences may arrive split across reads:
/// an incomplete one waits in the decoder for the next bytes, and ``flush()`` (called when no
/// more bytes came soon after) turns a lone ESC into the Escape key.
struct KeyDecoder {
  private var pending: [UInt8] = []

  /// The keys completed by `bytes`.
  mutating func feed(_ bytes: [UInt8]) -> [Key] {
    pending += bytes
    var keys: [Key] = []
    var index = 0
    while index < pending.count {
      guard let (key, length) = Self.decode(pending[index...]) else { break }
      if let key { keys.append(key) }
      index += length
    }
    pending.removeFirst(index)
    return keys
  }

  /// What is left waiting: a lone ESC is the Escape key; anything else incomplete is dropped.
  mutating func flush() -> [Key] {
    defer { pending.removeAll() }
    return pending == [0x1B] ? [.escape] : []
  }

  /// Whether bytes are waiting for the rest of a sequence.
  var isWaiting: Bool { !pending.isEmpty }

  /// The key at the start of `bytes` and how many bytes it took; `nil` when more are needed. A
  /// `nil` key with a length means bytes to skip (an unknown sequence).
  private static func decode(_ bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
    let first = bytes[bytes.startIndex]
    switch first {
    case 0x1B:
      return escape(bytes)
    case 0x0D, 0x0A: return (.enter, 1)
    case 0x7F, 0x08: return (.backspace, 1)
    case 0x09: return (.tab, 1)
    case 0x03: return (.interrupt, 1)
    case 0x1A: return (.suspend, 1)
    case 0x01...0x19:
      // Ctrl and a letter: C-a is 1, C-y 25.
      return (.control(Character(Unicode.Scalar(first + 0x60))), 1)
    case 0x00..<0x20: return (nil, 1)
    case 0x20..<0x80: return (.character(Character(Unicode.Scalar(first))), 1)
    default:
      // UTF-8: the lead byte says how long the character is.
      let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
      guard bytes.count >= length else { return nil }
      let text = String(decoding: bytes.prefix(length), as: UTF8.self)
      return (text.first.map(Key.character), length)
    }
  }

  /// ESC, ESC [ … final, ESC O x.
  private static func escape(_ bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
    let start = bytes.startIndex
    guard bytes.count >= 2 else { return nil }
    let second = bytes[start + 1]
    switch second {
    case UInt8(ascii: "["):
      // Parameters (0x30–0x3F), intermediates, then a final byte (0x40–0x7E).
      var index = start + 2
      while index < bytes.endIndex, !(0x40...0x7E).contains(bytes[index]) { index += 1 }
      guard index < bytes.endIndex else { return nil }
      let parameters = String(decoding: bytes[(start + 2)..<index], as: UTF8.self)
      let length = index - start + 1
      switch (bytes[index], parameters) {
      case (UInt8(ascii: "A"), _): return (.up, length)
      case (UInt8(ascii: "B"), _): return (.down, length)
      case (UInt8(ascii: "C"), _): return (.right, length)
      case (UInt8(ascii: "D"), _): return (.left, length)
      case (UInt8(ascii: "H"), _): return (.home, length)
      case (UInt8(ascii: "F"), _): return (.end, length)
      case (UInt8(ascii: "Z"), _): return (.backTab, length)
      case (UInt8(ascii: "~"), "5"): return (.pageUp, length)
      case (UInt8(ascii: "~"), "6"): return (.pageDown, length)
      case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): return (.home, length)
      case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): return (.end, length)
      case (UInt8(ascii: "~"), "2"): return (.insert, length)
      case (UInt8(ascii: "~"), "3"): return (.delete, length)
      case (UInt8(ascii: "~"), _):
        // F5 to F12 (and F1 to F4 as some terminals send them).
        let numbers = [
          11: 1, 12: 2, 13: 3, 14: 4, 15: 5, 17: 6, 18: 7, 19: 8, 20: 9, 21: 10, 23: 11, 24: 12,
        ]
        return (Int(parameters).flatMap { numbers[$0] }.map(Key.function), length)
      default: return (nil, length)
      }
    case UInt8(ascii: "O"):
      guard bytes.count >= 3 else { return nil }
      switch bytes[start + 2] {
      case UInt8(ascii: "A"): return (.up, 3)
      case UInt8(ascii: "B"): return (.down, 3)
      case UInt8(ascii: "C"): return (.right, 3)
      case UInt8(ascii: "D"): return (.left, 3)
      case UInt8(ascii: "H"): return (.home, 3)
      case UInt8(ascii: "F"): return (.end, 3)
      case UInt8(ascii: "P"): return (.function(1), 3)
      case UInt8(ascii: "Q"): return (.function(2), 3)
      case UInt8(ascii: "R"): return (.function(3), 3)
      case UInt8(ascii: "S"): return (.function(4), 3)
      default: return (nil, 3)
      }
    case 0x1B:
      // ESC ESC: the first one was the Escape key.
      return (.escape, 1)
    default:
      // Alt-x and the like: read as Escape, then the key.
      return (.escape, 1)
    }
  }
}
