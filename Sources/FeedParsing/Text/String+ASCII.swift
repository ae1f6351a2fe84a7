extension StringProtocol {
  /// Whether every byte is printable ASCII (0x20–0x7E), or a line feed when `newlines` allows:
  /// text for which one byte is one column and nothing needs cleaning. Checked on the contiguous
  /// bytes when there are some (the common case), which is several times faster than iterating.
  package func isPrintableASCII(allowingNewlines newlines: Bool = false) -> Bool {
    let check = { (byte: UInt8) -> Bool in
      (byte >= 0x20 && byte < 0x7F) || (newlines && byte == 0x0A)
    }
    if let result = utf8.withContiguousStorageIfAvailable({ buffer -> Bool in
      for byte in buffer where !check(byte) { return false }
      return true
    }) {
      return result
    }
    return utf8.allSatisfy(check)
  }
}
