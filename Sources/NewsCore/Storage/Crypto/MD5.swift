import Foundation

/// MD5 (RFC 1321), for the one place a protocol requires it: the Fever API's `api_key` is the
/// MD5 of `user:password`. Not used for anything that must resist an attacker.
enum MD5 {
  /// The 16-byte digest of `message`.
  static func digest(_ message: [UInt8]) -> [UInt8] {
    var state: (UInt32, UInt32, UInt32, UInt32) = (
      0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476
    )
    var padded = message
    padded.append(0x80)
    while padded.count % 64 != 56 { padded.append(0) }
    let bits = UInt64(message.count) &* 8
    for shift in stride(from: 0, to: 64, by: 8) {
      padded.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
    }
    for start in stride(from: 0, to: padded.count, by: 64) {
      var words = [UInt32](repeating: 0, count: 16)
      for index in 0..<16 {
        let at = start + index * 4
        words[index] =
          UInt32(padded[at]) | UInt32(padded[at + 1]) << 8 | UInt32(padded[at + 2]) << 16
          | UInt32(padded[at + 3]) << 24
      }
      var (a, b, c, d) = state
      for step in 0..<64 {
        var f: UInt32
        let g: Int
        switch step {
        case 0..<16:
          f = (b & c) | (~b & d)
          g = step
        case 16..<32:
          f = (d & b) | (~d & c)
          g = (5 * step + 1) % 16
        case 32..<48:
          f = b ^ c ^ d
          g = (3 * step + 5) % 16
        default:
          f = c ^ (b | ~d)
          g = (7 * step) % 16
        }
        f = f &+ a &+ constants[step] &+ words[g]
        a = d
        d = c
        c = b
        b = b &+ ((f << shifts[step]) | (f >> (32 - shifts[step])))
      }
      state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }
    return [state.0, state.1, state.2, state.3].flatMap { word in
      (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32($0 * 8)) }
    }
  }

  /// The digest as 32 lower-case hexadecimal digits.
  static func hex(_ text: String) -> String {
    digest(Array(text.utf8)).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
  }

  private static let shifts: [UInt32] = [
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
    5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
    4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
    6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
  ]

  /// floor(abs(sin(i + 1)) × 2³²), as RFC 1321 lists them.
  private static let constants: [UInt32] = (0..<64).map { index in
    UInt32(truncatingIfNeeded: Int64((abs(sin(Double(index + 1))) * 4_294_967_296).rounded(.down)))
  }
}
