/// Random bytes from the system's secure generator (`getrandom(2)` on Linux, `arc4random` on
/// Apple platforms), as Swift's `SystemRandomNumberGenerator` documents.
public enum SecureRandom {
  /// `count` random bytes.
  public static func bytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    var bytes = [UInt8]()
    bytes.reserveCapacity(count + 8)
    while bytes.count < count {
      let word = generator.next()
      for shift in stride(from: 0, to: 64, by: 8) {
        bytes.append(UInt8(truncatingIfNeeded: word >> shift))
      }
    }
    return Array(bytes.prefix(count))
  }
}
