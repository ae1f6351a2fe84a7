/// A hash that is the same on every machine and every run (Swift's `Hasher` is seeded per process),
/// for ids derived from content: FNV-1a, 64 bits.
public enum StableHash {
  /// The first `length` lower-case hex digits of the FNV-1a hash of the UTF-8 bytes of `parts`,
  /// each part followed by a 0 byte so that `("ab", "c")` and `("a", "bc")` differ.
  public static func hex(_ parts: String..., length: Int = 12) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for part in parts {
      for byte in part.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
      hash = hash &* 0x100_0000_01b3
    }
    let digits = String(hash, radix: 16)
    return String((String(repeating: "0", count: 16 - digits.count) + digits).prefix(length))
  }
}
