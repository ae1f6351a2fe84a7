/// The Poly1305 one-time authenticator of RFC 8439, section 2.5.
///
/// Arithmetic modulo 2^130 - 5 on five 26-bit limbs in 64-bit products (the "donna" layout); the
/// final reduction selects with masks, so no branch depends on secret values. Streaming, so that
/// the AEAD can authenticate its padded segments without copying them into one buffer.
struct Poly1305 {
  private let r0, r1, r2, r3, r4: UInt32
  private let s1, s2, s3, s4: UInt32
  private let pad0, pad1, pad2, pad3: UInt32
  private var h0: UInt32 = 0
  private var h1: UInt32 = 0
  private var h2: UInt32 = 0
  private var h3: UInt32 = 0
  private var h4: UInt32 = 0

  /// Starts an authenticator with the one-time `key` (32 bytes).
  init(key: [UInt8]) {
    precondition(key.count == 32)
    func load(_ offset: Int) -> UInt32 {
      UInt32(key[offset]) | UInt32(key[offset + 1]) << 8 | UInt32(key[offset + 2]) << 16
        | UInt32(key[offset + 3]) << 24
    }
    r0 = load(0) & 0x3ff_ffff
    r1 = (load(3) >> 2) & 0x3ff_ff03
    r2 = (load(6) >> 4) & 0x3ff_c0ff
    r3 = (load(9) >> 6) & 0x3f0_3fff
    r4 = (load(12) >> 8) & 0x00f_ffff
    (s1, s2, s3, s4) = (r1 * 5, r2 * 5, r3 * 5, r4 * 5)
    (pad0, pad1, pad2, pad3) = (load(16), load(20), load(24), load(28))
  }

  /// The 16-byte tag of `message` under the one-time `key` (32 bytes).
  static func tag(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
    var poly = Poly1305(key: key)
    message.withUnsafeBytes { bytes in
      let full = bytes.count / 16 * 16
      poly.blocks(bytes.baseAddress, count: full, hibit: 1 << 24)
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
    blocks(bytes.baseAddress, count: full, hibit: 1 << 24)
    if full < bytes.count {
      var last = [UInt8](repeating: 0, count: 16)
      for index in full..<bytes.count { last[index - full] = bytes[index] }
      last.withUnsafeBytes { blocks($0.baseAddress, count: 16, hibit: 1 << 24) }
    }
  }

  /// Processes `count` bytes (a multiple of 16) as full blocks.
  mutating func blocks(_ pointer: UnsafeRawPointer?, count: Int, hibit: UInt32) {
    guard let pointer, count > 0 else { return }
    let mask: UInt32 = 0x3ff_ffff
    var (h0, h1, h2, h3, h4) = (self.h0, self.h1, self.h2, self.h3, self.h4)
    var offset = 0
    while offset < count {
      @inline(__always)
      func load(_ at: Int) -> UInt32 {
        UInt32(littleEndian: pointer.loadUnaligned(fromByteOffset: offset + at, as: UInt32.self))
      }
      h0 &+= load(0) & mask
      h1 &+= (load(3) >> 2) & mask
      h2 &+= (load(6) >> 4) & mask
      h3 &+= (load(9) >> 6) & mask
      h4 &+= (load(12) >> 8) | hibit

      let d0 = mul(h0, r0) &+ mul(h1, s4) &+ mul(h2, s3) &+ mul(h3, s2) &+ mul(h4, s1)
      var d1 = mul(h0, r1) &+ mul(h1, r0) &+ mul(h2, s4) &+ mul(h3, s3) &+ mul(h4, s2)
      var d2 = mul(h0, r2) &+ mul(h1, r1) &+ mul(h2, r0) &+ mul(h3, s4) &+ mul(h4, s3)
      var d3 = mul(h0, r3) &+ mul(h1, r2) &+ mul(h2, r1) &+ mul(h3, r0) &+ mul(h4, s4)
      var d4 = mul(h0, r4) &+ mul(h1, r3) &+ mul(h2, r2) &+ mul(h3, r1) &+ mul(h4, r0)

      var carry = d0 >> 26
      h0 = UInt32(truncatingIfNeeded: d0) & mask
      d1 &+= carry
      carry = d1 >> 26
      h1 = UInt32(truncatingIfNeeded: d1) & mask
      d2 &+= carry
      carry = d2 >> 26
      h2 = UInt32(truncatingIfNeeded: d2) & mask
      d3 &+= carry
      carry = d3 >> 26
      h3 = UInt32(truncatingIfNeeded: d3) & mask
      d4 &+= carry
      carry = d4 >> 26
      h4 = UInt32(truncatingIfNeeded: d4) & mask
      h0 &+= UInt32(truncatingIfNeeded: carry) &* 5
      h1 &+= h0 >> 26
      h0 &= mask
      offset += 16
    }
    (self.h0, self.h1, self.h2, self.h3, self.h4) = (h0, h1, h2, h3, h4)
  }

  /// The tag: full carry, then h + -p kept if it did not underflow, plus the pad.
  func finish() -> [UInt8] {
    let mask: UInt32 = 0x3ff_ffff
    var (h0, h1, h2, h3, h4) = (self.h0, self.h1, self.h2, self.h3, self.h4)
    var c = h1 >> 26
    h1 &= mask
    h2 &+= c
    c = h2 >> 26
    h2 &= mask
    h3 &+= c
    c = h3 >> 26
    h3 &= mask
    h4 &+= c
    c = h4 >> 26
    h4 &= mask
    h0 &+= c &* 5
    c = h0 >> 26
    h0 &= mask
    h1 &+= c

    var g0 = h0 &+ 5
    c = g0 >> 26
    g0 &= mask
    var g1 = h1 &+ c
    c = g1 >> 26
    g1 &= mask
    var g2 = h2 &+ c
    c = g2 >> 26
    g2 &= mask
    var g3 = h3 &+ c
    c = g3 >> 26
    g3 &= mask
    var g4 = h4 &+ c &- (1 << 26)

    var select = (g4 >> 31) &- 1  // all ones when h >= p
    g0 &= select
    g1 &= select
    g2 &= select
    g3 &= select
    g4 &= select
    select = ~select
    h0 = (h0 & select) | g0
    h1 = (h1 & select) | g1
    h2 = (h2 & select) | g2
    h3 = (h3 & select) | g3
    h4 = (h4 & select) | g4

    let w0 = h0 | (h1 << 26)
    let w1 = (h1 >> 6) | (h2 << 20)
    let w2 = (h2 >> 12) | (h3 << 14)
    let w3 = (h3 >> 18) | (h4 << 8)

    var f = UInt64(w0) &+ UInt64(pad0)
    let t0 = UInt32(truncatingIfNeeded: f)
    f = UInt64(w1) &+ UInt64(pad1) &+ (f >> 32)
    let t1 = UInt32(truncatingIfNeeded: f)
    f = UInt64(w2) &+ UInt64(pad2) &+ (f >> 32)
    let t2 = UInt32(truncatingIfNeeded: f)
    f = UInt64(w3) &+ UInt64(pad3) &+ (f >> 32)
    let t3 = UInt32(truncatingIfNeeded: f)

    var tag = [UInt8](repeating: 0, count: 16)
    for (index, word) in [t0, t1, t2, t3].enumerated() {
      tag[index * 4] = UInt8(truncatingIfNeeded: word)
      tag[index * 4 + 1] = UInt8(truncatingIfNeeded: word >> 8)
      tag[index * 4 + 2] = UInt8(truncatingIfNeeded: word >> 16)
      tag[index * 4 + 3] = UInt8(truncatingIfNeeded: word >> 24)
    }
    return tag
  }

  @inline(__always)
  private func mul(_ a: UInt32, _ b: UInt32) -> UInt64 { UInt64(a) &* UInt64(b) }
}
