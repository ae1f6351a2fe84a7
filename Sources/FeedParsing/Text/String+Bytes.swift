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
