extension StringProtocol {
  /// Whether every byte is printable ASCII (0x20–0x7E), or a line feed when `newlines` allows:
  /// text for which one byte is one column and nothing needs cleaning. Checked on the contiguous
  /// bytes when there are some (the common case), which is several times faster than iterating.
  package func isPrintableASCII(allowingNewlines newlines: Bool = false) -> Bool {
    if let result = utf8.withContiguousStorageIfAvailable({
      ASCIIWord.isPrintable($0, allowingNewlines: newlines)
    }) {
      return result
    }
    return utf8.allSatisfy { ASCIIWord.isPrintable($0, allowingNewlines: newlines) }
  }
}
