/// Eight bytes read as one word and looked at together, for the scans that decide whether text
/// needs any work at all (almost all of it is printable ASCII): each answers exactly, as a byte
/// at a time would, about the word's eight bytes in any order.
package enum ASCIIWord {
  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let highs: UInt64 = 0x8080_8080_8080_8080

  /// Whether some byte of `word` is zero (exactly: a borrow only ever marks bytes above a zero).
  @inline(__always)
  private static func hasZero(_ word: UInt64) -> Bool {
    (word &- ones) & ~word & highs != 0
  }

  /// Whether some byte of `word` is `byte`.
  @inline(__always)
  package static func contains(_ byte: UInt8, in word: UInt64) -> Bool {
    hasZero(word ^ (UInt64(byte) &* ones))
  }

  /// Whether every byte of `word` is printable ASCII, from space (0x20) to `~` (0x7E).
  @inline(__always)
  package static func isPrintable(_ word: UInt64) -> Bool {
    // No byte of 0x80 and above; then none under 0x20 (exact for bytes under 0x80), nor DEL.
    word & highs == 0 && (word &- 0x20 &* ones) & ~word & highs == 0 && !contains(0x7F, in: word)
  }

  /// Whether every byte of `bytes` is printable ASCII, or a line feed when `newlines` allows.
  package static func isPrintable(
    _ bytes: UnsafeBufferPointer<UInt8>, allowingNewlines newlines: Bool
  )
    -> Bool
  {
    guard let base = bytes.baseAddress else { return true }
    let raw = UnsafeRawPointer(base)
    var index = 0
    while bytes.count - index >= 8 {
      // A line feed fails the word: its bytes are then looked at one by one.
      if isPrintable(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
        index += 8
        continue
      }
      for byte in bytes[index..<(index + 8)] where !isPrintable(byte, newlines) { return false }
      index += 8
    }
    for byte in bytes[index...] where !isPrintable(byte, newlines) { return false }
    return true
  }

  @inline(__always)
  private static func isPrintable(_ byte: UInt8, _ newlines: Bool) -> Bool {
    (byte >= 0x20 && byte < 0x7F) || (newlines && byte == 0x0A)
  }
}
