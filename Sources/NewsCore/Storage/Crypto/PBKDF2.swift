/// PBKDF2 with HMAC-SHA256 (RFC 8018): how `news serve` keeps its password — salted, stretched,
/// compared in constant time, never stored as given.
enum PBKDF2 {
  /// OWASP's count for PBKDF2-HMAC-SHA256 (Password Storage Cheat Sheet, 2023 onwards).
  static let recommendedIterations = 600_000

  /// `length` bytes derived from `password` and `salt` in `iterations` rounds.
  static func derive(
    password: [UInt8], salt: [UInt8], iterations: Int, length: Int = 32
  ) -> [UInt8] {
    let hmac = SHA256.HMAC(key: password)
    // One schedule for every round: a round is two compressions, nothing allocated.
    let schedule = SHA256.Schedule()
    var derived: [UInt8] = []
    var block: UInt32 = 1
    while derived.count < length {
      let index = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: block >> UInt32($0)) }
      var round = hmac.authenticateWords(salt + index, schedule: schedule)
      var result = round
      for _ in 1..<max(iterations, 1) {
        round = hmac.authenticateDigest(round, schedule: schedule)
        result.formXOR(round)
      }
      derived += result.bytes
      block += 1
    }
    return Array(derived.prefix(length))
  }

  /// Whether `left` and `right` are equal, in a time that depends on their length alone.
  static func constantTimeEqual(_ left: [UInt8], _ right: [UInt8]) -> Bool {
    guard left.count == right.count else { return false }
    var difference: UInt8 = 0
    for index in 0..<left.count { difference |= left[index] ^ right[index] }
    return difference == 0
  }
}
