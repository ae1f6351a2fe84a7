/// The Poly1305 one-time authenticator of RFC 8439, section 2.5.
///
/// Arithmetic modulo 2^130 - 5 on three limbs of 44, 44 and 42 bits with 64×64→128-bit products
/// (the "donna-64" layout: 9 multiplications a block instead of 25 with 26-bit limbs); the final
/// reduction selects with masks, so no branch depends on secret values. Streaming, so that the
/// AEAD can authenticate its padded segments without copying them into one buffer.
struct Poly1305 {
  private let r0, r1, r2: UInt64
  private let s1, s2: UInt64
  private let pad0, pad1: UInt64
  private var h0: UInt64 = 0
  private var h1: UInt64 = 0
  private var h2: UInt64 = 0

  private static let mask44: UInt64 = 0xfff_ffff_ffff
  private static let mask42: UInt64 = 0x3ff_ffff_ffff
  /// The 2^128 bit of a full block, in the top limb.
  static let fullBlock: UInt64 = 1 << 40

  /// Starts an authenticator with the one-time `key` (32 bytes).
  init(key: [UInt8]) {
    precondition(key.count == 32)
    func load(_ offset: Int) -> UInt64 {
      (0..<8).reduce(0) { $0 | UInt64(key[offset + $1]) << (8 * UInt64($1)) }
    }
    let (t0, t1) = (load(0), load(8))
    r0 = t0 & 0xffc_0fff_ffff
    r1 = ((t0 >> 44) | (t1 << 20)) & 0xfff_ffc0_ffff
    r2 = (t1 >> 24) & 0x00f_ffff_fc0f
    (s1, s2) = (r1 &* (5 << 2), r2 &* (5 << 2))
    (pad0, pad1) = (load(16), load(24))
  }

  /// The 16-byte tag of `message` under the one-time `key` (32 bytes).
  static func tag(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
    var poly = Poly1305(key: key)
    message.withUnsafeBytes { bytes in
      let full = bytes.count / 16 * 16
      poly.blocks(bytes.baseAddress, count: full, hibit: fullBlock)
      if full < bytes.count {
        // A final partial block is padded with a 1 byte, then zeros, and has no high bit.
        var last = [UInt8](repeating: 0, count: 16)
        for index in full..<bytes.count { last[index - full] = bytes[index] }
        last[bytes.count - full] = 1
        last.withUnsafeBytes { poly.blocks($0.baseAddress, count: 16, hibit: 0) }
      }
    }
    return poly.finish()
  }

  /// Adds `bytes` zero-padded to a multiple of 16, as the AEAD construction does (section 2.8).
  mutating func updatePadded(_ bytes: UnsafeRawBufferPointer) {
    let full = bytes.count / 16 * 16
    blocks(bytes.baseAddress, count: full, hibit: Self.fullBlock)
    if full < bytes.count {
      var last = [UInt8](repeating: 0, count: 16)
      for index in full..<bytes.count { last[index - full] = bytes[index] }
      last.withUnsafeBytes { blocks($0.baseAddress, count: 16, hibit: Self.fullBlock) }
    }
  }

  /// Processes `count` bytes (a multiple of 16) as full blocks.
  mutating func blocks(_ pointer: UnsafeRawPointer?, count: Int, hibit: UInt64) {
    guard let pointer, count > 0 else { return }
    let (mask44, mask42) = (Self.mask44, Self.mask42)
    var (h0, h1, h2) = (self.h0, self.h1, self.h2)
    var offset = 0
    while offset < count {
      let t0 = UInt64(littleEndian: pointer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      let t1 = UInt64(
        littleEndian: pointer.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
      h0 &+= t0 & mask44
      h1 &+= ((t0 >> 44) | (t1 << 20)) & mask44
      h2 &+= ((t1 >> 24) & mask42) | hibit

      let d0 = Wide(h0, r0).adding(h1, s2).adding(h2, s1)
      var d1 = Wide(h0, r1).adding(h1, r0).adding(h2, s2)
      var d2 = Wide(h0, r2).adding(h1, r1).adding(h2, r0)

      var carry = d0.shifted(44)
      h0 = d0.low & mask44
      d1.add(carry)
      carry = d1.shifted(44)
      h1 = d1.low & mask44
      d2.add(carry)
      carry = d2.shifted(42)
      h2 = d2.low & mask42
      h0 &+= carry &* 5
      carry = h0 >> 44
      h0 &= mask44
      h1 &+= carry
      offset += 16
    }
    (self.h0, self.h1, self.h2) = (h0, h1, h2)
  }

  /// The tag: full carry, then h + -p kept if it did not underflow, plus the pad.
  func finish() -> [UInt8] {
    let (mask44, mask42) = (Self.mask44, Self.mask42)
    var (h0, h1, h2) = (self.h0, self.h1, self.h2)
    var c = h1 >> 44
    h1 &= mask44
    for _ in 0..<2 {
      h2 &+= c
      c = h2 >> 42
      h2 &= mask42
      h0 &+= c &* 5
      c = h0 >> 44
      h0 &= mask44
      h1 &+= c
      c = h1 >> 44
      h1 &= mask44
    }
    h2 &+= c

    var g0 = h0 &+ 5
    c = g0 >> 44
    g0 &= mask44
    var g1 = h1 &+ c
    c = g1 >> 44
    g1 &= mask44
    var g2 = h2 &+ c &- (1 << 42)

    var select = (g2 >> 63) &- 1  // all ones when h >= p
    g0 &= select
    g1 &= select
    g2 &= select
    select = ~select
    h0 = (h0 & select) | g0
    h1 = (h1 & select) | g1
    h2 = (h2 & select) | g2

    // h + pad, modulo 2^128.
    h0 &+= pad0 & mask44
    c = h0 >> 44
    h0 &= mask44
    h1 &+= (((pad0 >> 44) | (pad1 << 20)) & mask44) &+ c
    c = h1 >> 44
    h1 &= mask44
    h2 &+= ((pad1 >> 24) & mask42) &+ c
    h2 &= mask42
    let low = h0 | (h1 << 44)
    let high = (h1 >> 20) | (h2 << 24)
    return (0..<16).map { UInt8(truncatingIfNeeded: ($0 < 8 ? low : high) >> (8 * UInt64($0 % 8))) }
  }

  /// A 128-bit sum of 64×64-bit products.
  private struct Wide {
    var high: UInt64
    var low: UInt64

    @inline(__always)
    init(_ a: UInt64, _ b: UInt64) {
      (high, low) = a.multipliedFullWidth(by: b)
    }

    @inline(__always)
    func adding(_ a: UInt64, _ b: UInt64) -> Wide {
      var sum = self
      let product = a.multipliedFullWidth(by: b)
      let (low, overflow) = sum.low.addingReportingOverflow(product.low)
      sum.low = low
      sum.high &+= product.high &+ (overflow ? 1 : 0)
      return sum
    }

    @inline(__always)
    mutating func add(_ value: UInt64) {
      let (sum, overflow) = low.addingReportingOverflow(value)
      low = sum
      high &+= overflow ? 1 : 0
    }

    /// The value shifted right by `count` (less than 64), as 64 bits.
    @inline(__always)
    func shifted(_ count: UInt64) -> UInt64 {
      (low >> count) | (high << (64 - count))
    }
  }
}
