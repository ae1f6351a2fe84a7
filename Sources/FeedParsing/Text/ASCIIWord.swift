/// Eight bytes read as one word and looked at together, for the scans that decide whether text
/// needs any work at all (almost all of it is printable ASCII): each answers exactly, as a byte
/// at a time would.
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
  private static func contains(_ byte: UInt8, in word: UInt64) -> Bool {
    hasZero(word ^ (UInt64(byte) &* ones))
  }

  /// Whether every byte of `word` is printable ASCII, from space (0x20) to `~` (0x7E).
  @inline(__always)
  private static func isPrintable(_ word: UInt64) -> Bool {
    // No byte of 0x80 and above; then none under 0x20 (exact for bytes under 0x80), nor DEL.
    word & highs == 0 && (word &- 0x20 &* ones) & ~word & highs == 0 && !contains(0x7F, in: word)
  }

  /// Where the printable ASCII from `start` ends, in steps of eight bytes: the start of the
  /// first eight that are not all printable (or hold a `"` or `\` when `quotes` says so), or of
  /// the last fewer than eight. The bytes from there on are the caller's to look at one by one.
  /// (One call a string, not one a word: the compiler does not inline across modules here.)
  package static func endOfPrintable(
    in bytes: UnsafeBufferPointer<UInt8>, from start: Int, orQuotes quotes: Bool = false
  ) -> Int {
    guard let base = bytes.baseAddress else { return start }
    let raw = UnsafeRawPointer(base)
    var index = start
    while bytes.count - index >= 8 {
      let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      guard isPrintable(word), !quotes || !(contains(0x22, in: word) || contains(0x5C, in: word))
      else { break }
      index += 8
    }
    return index
  }

  /// Whether every byte of `bytes` is printable ASCII, or a line feed when `newlines` allows.
  package static func isPrintable(
    _ bytes: UnsafeBufferPointer<UInt8>, allowingNewlines newlines: Bool
  ) -> Bool {
    var index = 0
    while index < bytes.count {
      index = endOfPrintable(in: bytes, from: index)
      // Eight bytes at most (a line feed fails a word), then words again.
      let stop = min(index + 8, bytes.count)
      for byte in bytes[index..<stop] where !isPrintable(byte, allowingNewlines: newlines) {
        return false
      }
      index = stop
    }
    return true
  }

  /// Whether `byte` is printable ASCII, or a line feed when `newlines` allows.
  @inline(__always)
  package static func isPrintable(_ byte: UInt8, allowingNewlines newlines: Bool) -> Bool {
    (byte >= 0x20 && byte < 0x7F) || (newlines && byte == 0x0A)
  }
}
