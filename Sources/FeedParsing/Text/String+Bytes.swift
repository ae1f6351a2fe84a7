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
    guard
      let found = utf8.withContiguousStorageIfAvailable({
        FeedParsing.lastRange(of: needle, in: $0)
      })
    else { return range(of: marker, options: .backwards) }
    guard let offsets = found else { return nil }
    let lower = utf8.index(utf8.startIndex, offsetBy: offsets.lowerBound)
    return lower..<utf8.index(lower, offsetBy: offsets.count)
  }
}

/// The last place `marker` is in `bytes`, as offsets.
package func lastRange(of marker: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
  guard let first = marker.first, bytes.count >= marker.count else { return nil }
  var start = bytes.count - marker.count
  while start >= 0 {
    if bytes[start] == first, marker.indices.allSatisfy({ bytes[start + $0] == marker[$0] }) {
      return start..<(start + marker.count)
    }
    start -= 1
  }
  return nil
}
