import Foundation

extension Optional where Wrapped == String {
  /// The string trimmed, or `nil` when it is absent or blank.
  var nonEmpty: String? {
    guard let trimmed = self?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty
    else { return nil }
    return trimmed
  }
}

extension StringProtocol {
  /// The text without leading and trailing white space.
  func trimmingWhitespace() -> SubSequence {
    var start = startIndex
    var end = endIndex
    while start < end, self[start].isWhitespace { start = index(after: start) }
    while end > start, self[index(before: end)].isWhitespace { end = index(before: end) }
    return self[start..<end]
  }
}

extension Unicode.Scalar {
  /// `a`–`z` or `A`–`Z`.
  var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
  /// `0`–`9`.
  var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
