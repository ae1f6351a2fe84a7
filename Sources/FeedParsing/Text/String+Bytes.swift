import Foundation

extension StringProtocol {
  /// Whether the text's UTF-8 holds `byte`: looked for in its bytes at once where they are
  /// contiguous (a native string's are), one by one otherwise.
  package func containsByte(_ byte: UInt8) -> Bool {
    utf8.withContiguousStorageIfAvailable { bytes in
      guard let base = bytes.baseAddress else { return false }
      return memchr(base, Int32(byte), bytes.count) != nil
    } ?? utf8.contains(byte)
  }
}

extension String {
  /// The last range of `marker` in the text, its bytes compared (Foundation's search from the
  /// end goes through NSString and UTF-16: a twelfth of `news serve`'s answer for a page of
  /// articles). `marker` begins with an ASCII character, so a match starts a character.
  package func lastRange(ofBytes marker: String) -> Range<String.Index>? {
    let needle = Array(marker.utf8)
    guard let first = needle.first, first < 0x80 else {
      return range(of: marker, options: .backwards)
    }
    let found: Int?? = utf8.withContiguousStorageIfAvailable { bytes in
      var start = bytes.count - needle.count
      while start >= 0 {
        if bytes[start] == first, needle.indices.allSatisfy({ bytes[start + $0] == needle[$0] }) {
          return start
        }
        start -= 1
      }
      return nil
    }
    guard let found else { return range(of: marker, options: .backwards) }
    guard let offset = found else { return nil }
    let lower = utf8.index(utf8.startIndex, offsetBy: offset)
    return lower..<utf8.index(lower, offsetBy: needle.count)
  }
}
