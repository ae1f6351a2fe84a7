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
    var start = startIndex
    var end = endIndex
    while start < end, self[start].isWhitespace { start = index(after: start) }
    while end > start, self[index(before: end)].isWhitespace { end = index(before: end) }
    return self[start..<end]
  }
}

extension Unicode.Scalar {
  /// `a`–`z` or `A`–`Z`.
  package var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
  /// `0`–`9`.
  package var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
