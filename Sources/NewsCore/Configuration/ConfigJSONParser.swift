/// Reads JSON in UTF-8 straight into ``ConfigNode/Value``s: a `config.json` of 10,000 sources
/// took a fifth of every command's start through `JSONSerialization` and the bridging of what it
/// made.
///
/// Strict RFC 8259, never more lenient than `JSONSerialization`: what it refuses (another
/// encoding, a lone surrogate, a control character in a string, nesting past
/// ``maximumDepth``…) it leaves to it, by returning `nil`, so a file reads, or fails with the
/// same message, as it did (the `config` fuzz target holds the two to the same values).
struct ConfigJSONParser {
  private let bytes: [UInt8]
  private var index = 0

  /// The deepest nesting read here; deeper files go to `JSONSerialization` (a bound, so that
  /// no file can exhaust the stack).
  static let maximumDepth = 256

  /// Numbers of any length and with exponents are read too, each the double nearest to it.
  private let everyNumber: Bool

  /// The value the UTF-8 JSON `bytes` holds (a scalar at the top is one); `nil` when it is
  /// not one this parser reads. With `everyNumber`, a number of any length or with an exponent
  /// is the double nearest to it, as `JSONDecoder` reads it (for the store's own files, which
  /// `JSONEncoder` wrote; `JSONSerialization` rounds some otherwise).
  static func value(of bytes: [UInt8], everyNumber: Bool = false) -> ConfigNode.Value? {
    var parser = ConfigJSONParser(bytes: bytes, everyNumber: everyNumber)
    guard let value = parser.value(depth: 0) else { return nil }
    parser.skipWhitespace()
    return parser.index == bytes.count ? value : nil
  }

  private init(bytes: [UInt8], everyNumber: Bool) {
    self.bytes = bytes
    self.everyNumber = everyNumber
  }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  private mutating func value(depth: Int) -> ConfigNode.Value? {
    skipWhitespace()
    guard index < bytes.count, depth < Self.maximumDepth else { return nil }
    switch bytes[index] {
    case UInt8(ascii: "{"): return object(depth: depth)
    case UInt8(ascii: "["): return array(depth: depth)
    case UInt8(ascii: "\""): return string().map { .string($0) }
    case UInt8(ascii: "t"): return literal("true", .bool(true))
    case UInt8(ascii: "f"): return literal("false", .bool(false))
    case UInt8(ascii: "n"): return literal("null", .null)
    default: return number()
    }
  }

  private mutating func literal(_ word: String, _ value: ConfigNode.Value) -> ConfigNode.Value? {
    let word = word.utf8
    guard bytes[index...].starts(with: word) else { return nil }
    index += word.count
    return value
  }

  private mutating func object(depth: Int) -> ConfigNode.Value? {
    index += 1
    var members: [String: ConfigNode.Value] = [:]
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else {
        return nil
      }
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
      index += 1
      guard let value = value(depth: depth + 1) else { return nil }
      members[key] = value
      guard let ended = commaOrClose(UInt8(ascii: "}")) else { return nil }
      if ended { return .object(members) }
    }
  }

  private mutating func array(depth: Int) -> ConfigNode.Value? {
    index += 1
    var items: [ConfigNode.Value] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(items)
    }
    while true {
      guard let value = value(depth: depth + 1) else { return nil }
      items.append(value)
      guard let ended = commaOrClose(UInt8(ascii: "]")) else { return nil }
      if ended { return .array(items) }
    }
  }

  /// After a member or an item: `true` at `close` (read), `false` at a comma (read), `nil` at
  /// anything else, or at the end of the bytes.
  private mutating func commaOrClose(_ close: UInt8) -> Bool? {
    skipWhitespace()
    guard index < bytes.count else { return nil }
    switch bytes[index] {
    case UInt8(ascii: ","):
      index += 1
      return false
    case close:
      index += 1
      return true
    default:
      return nil
    }
  }

  /// A string from its opening quote; `nil` for a control character, a bad escape, a lone
  /// surrogate or bytes that are not UTF-8.
  private mutating func string() -> String? {
    index += 1
    let start = index
    // Most strings have no escape: their bytes are the text.
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        defer { index += 1 }
        return String(validating: bytes[start..<index], as: UTF8.self)
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 { return nil }
      index += 1
    }
    var text = Array(bytes[start..<index])
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        return String(validating: text, as: UTF8.self)
      case UInt8(ascii: "\\"):
        guard index < bytes.count else { return nil }
        let escaped = bytes[index]
        index += 1
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
          guard let scalar = unicodeEscape() else { return nil }
          text.append(contentsOf: String(Character(scalar)).utf8)
        default: return nil
        }
      default:
        if byte < 0x20 { return nil }
        text.append(byte)
      }
    }
    return nil
  }

  /// The scalar of a `\u` escape (after its `u`), a surrogate pair's as one; `nil` for a lone
  /// surrogate.
  private mutating func unicodeEscape() -> Unicode.Scalar? {
    guard let first = hex4() else { return nil }
    if (0xDC00...0xDFFF).contains(first) { return nil }
    guard (0xD800...0xDBFF).contains(first) else { return Unicode.Scalar(first) }
    guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"),
      bytes[index + 1] == UInt8(ascii: "u")
    else { return nil }
    index += 2
    guard let second = hex4(), (0xDC00...0xDFFF).contains(second) else { return nil }
    return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
  }

  private mutating func hex4() -> UInt32? {
    guard bytes.count - index >= 4 else { return nil }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      index += 1
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// A number as RFC 8259 writes one (`-0`, `12.5`; not `01`, `.5`, `1.` or `+1`), of at most
  /// 15 digits and without an exponent: a double holds those exactly as written, and
  /// `JSONSerialization` reads them the same (longer ones it rounds otherwise, one in ten).
  /// Others are left to it.
  private mutating func number() -> ConfigNode.Value? {
    let start = index
    var count = 0
    func digits() -> Int {
      let from = index
      while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
      count += index - from
      return index - from
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count else { return nil }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
      count += 1
    } else if digits() == 0 {
      return nil
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { return nil }
    }
    if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      guard everyNumber else { return nil }
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard digits() > 0 else { return nil }
    }
    guard count <= 15 || everyNumber,
      let number = Double(String(decoding: bytes[start..<index], as: UTF8.self)), number.isFinite
    else { return nil }
    return .number(number)
  }
}
