/// Whitespace in ASCII text, read from its bytes: what `Character.isWhitespace` says of the
/// ASCII characters (space, tab, line feed, vertical tab, form feed, carriage return), without
/// looking up Unicode properties for every character of every title and link of a feed.
enum ASCIIWhitespace {
  /// Whether `byte` is an ASCII whitespace character.
  static func contains(_ byte: UInt8) -> Bool {
    byte == 0x20 || (0x09...0x0D).contains(byte)
  }

  /// `text` with each run of whitespace made one space and none at either end, when `text` is
  /// ASCII; `nil` when it is not (the caller then looks at its characters).
  static func collapsed(_ text: String) -> String? {
    var text = text
    return text.withUTF8 { bytes -> String? in
      var clean = true
      var previousSpace = true
      for byte in bytes {
        if byte >= 0x80 { return nil }
        let space = contains(byte)
        if space && (byte != 0x20 || previousSpace) { clean = false }
        previousSpace = space
      }
      if clean && !previousSpace { return String(decoding: bytes, as: UTF8.self) }
      var out: [UInt8] = []
      out.reserveCapacity(bytes.count)
      var pending = false
      for byte in bytes {
        if contains(byte) {
          pending = !out.isEmpty
        } else {
          if pending { out.append(0x20) }
          pending = false
          out.append(byte)
        }
      }
      return String(decoding: out, as: UTF8.self)
    }
  }
}
