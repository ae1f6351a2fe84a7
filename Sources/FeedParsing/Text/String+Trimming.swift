import Foundation

extension Optional where Wrapped == String {
  /// The string trimmed, or `nil` when it is absent or blank.
  package var nonEmpty: String? {
    guard let self else { return nil }
    // Swift's own white space test at both ends: Foundation's trimming goes through NSString and
    // UTF-16, which was a quarter of a cold `news feed` of 200 feeds.
    let trimmed = self.trimmingWhitespace()
    guard !trimmed.isEmpty else { return nil }
    return trimmed.endIndex == self.endIndex && trimmed.startIndex == self.startIndex
      ? self : String(trimmed)
  }
}

extension StringProtocol {
  /// The text without leading and trailing white space.
  ///
  /// White space is Unicode's (`Character.isWhitespace`): spaces, tabs, line breaks, NBSP, U+2028…
  package func trimmingWhitespace() -> SubSequence {
    // Most text begins and ends in ASCII, where the answer is in the bytes: white space is
    // tab to carriage return and the space, each a character of its own, and no character
    // joins an ASCII letter to what comes before it. Anything else is asked of the characters.
    let ends: (start: Int?, end: Int?) =
      utf8.withContiguousStorageIfAvailable(Self.asciiEnds) ?? (nil, nil)
    var start = startIndex
    if let first = ends.start {
      start = utf8.index(startIndex, offsetBy: first)
    } else {
      while start < endIndex, self[start].isWhitespace { start = index(after: start) }
    }
    var end = endIndex
    if let last = ends.end {
      end = utf8.index(startIndex, offsetBy: last)
    } else {
      while end > start, self[index(before: end)].isWhitespace { end = index(before: end) }
    }
    return self[start..<end]
  }

  /// The offsets of the first and past the last byte that are not white space, each when the
  /// bytes decide it (an ASCII byte that is not white space), else `nil`: characters decide.
  private static func asciiEnds(_ bytes: UnsafeBufferPointer<UInt8>) -> (start: Int?, end: Int?) {
    var start = 0
    while start < bytes.count, isASCIISpace(bytes[start]) { start += 1 }
    var end = bytes.count
    while end > start, isASCIISpace(bytes[end - 1]) { end -= 1 }
    return (
      start < bytes.count && bytes[start] >= 0x80 ? nil : start,
      end > start && bytes[end - 1] >= 0x80 ? nil : end
    )
  }

  /// ``trimmingWhitespace()`` as it reads every character: what the byte paths must agree with.
  package func trimmingWhitespaceByCharacter() -> SubSequence {
    var start = startIndex
    var end = endIndex
    while start < end, self[start].isWhitespace { start = index(after: start) }
    while end > start, self[index(before: end)].isWhitespace { end = index(before: end) }
    return self[start..<end]
  }

  /// Tab, line feed, vertical tab, form feed, carriage return, space.
  @inline(__always)
  private static func isASCIISpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
  }
}

extension Unicode.Scalar {
  /// `a`–`z` or `A`–`Z`.
  package var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
  /// `0`–`9`.
  package var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
