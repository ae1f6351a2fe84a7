/// The ChaCha20 stream cipher of RFC 8439, section 2.4.
///
/// Additions, rotations and XORs only: no branch or table lookup depends on the key or the data,
/// so its timing does not leak them.
enum ChaCha20 {
  /// XORs `data` with the key stream for `key` and `nonce`, starting at block `counter`.
  static func xor(_ data: inout [UInt8], key: [UInt8], nonce: [UInt8], counter: UInt32) {
    precondition(key.count == 32 && nonce.count == 12)
    let k = words(key, count: 8)
    let n = words(nonce, count: 3)
    var blockCounter = counter
    var block = [UInt8](repeating: 0, count: 64)
    var offset = 0
    data.withUnsafeMutableBufferPointer { bytes in
      while offset < bytes.count {
        keyStream(key: k, counter: blockCounter, nonce: n, into: &block)
        let length = min(64, bytes.count - offset)
        for index in 0..<length { bytes[offset + index] ^= block[index] }
        offset += 64
        blockCounter &+= 1
      }
    }
  }

  /// The 64-byte key-stream block for `counter` (section 2.3).
  static func block(key: [UInt8], counter: UInt32, nonce: [UInt8]) -> [UInt8] {
    var block = [UInt8](repeating: 0, count: 64)
    keyStream(
      key: words(key, count: 8), counter: counter, nonce: words(nonce, count: 3), into: &block)
    return block
  }

  private static func words(_ bytes: [UInt8], count: Int) -> [UInt32] {
    (0..<count).map { index in
      UInt32(bytes[index * 4]) | UInt32(bytes[index * 4 + 1]) << 8
        | UInt32(bytes[index * 4 + 2]) << 16 | UInt32(bytes[index * 4 + 3]) << 24
    }
  }

  @inline(__always)
  private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
    (value << count) | (value >> (32 - count))
  }

  private static func keyStream(
    key k: [UInt32], counter: UInt32, nonce n: [UInt32], into block: inout [UInt8]
  ) {
    let initial: [UInt32] = [
      0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574,
      k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7],
      counter, n[0], n[1], n[2],
    ]
    var (x0, x1, x2, x3) = (initial[0], initial[1], initial[2], initial[3])
    var (x4, x5, x6, x7) = (initial[4], initial[5], initial[6], initial[7])
    var (x8, x9, x10, x11) = (initial[8], initial[9], initial[10], initial[11])
    var (x12, x13, x14, x15) = (initial[12], initial[13], initial[14], initial[15])

    @inline(__always)
    func quarterRound(
      _ a: inout UInt32, _ b: inout UInt32, _ c: inout UInt32, _ d: inout UInt32
    ) {
      a = a &+ b
      d = rotate(d ^ a, 16)
      c = c &+ d
      b = rotate(b ^ c, 12)
      a = a &+ b
      d = rotate(d ^ a, 8)
      c = c &+ d
      b = rotate(b ^ c, 7)
    }

    for _ in 0..<10 {
      quarterRound(&x0, &x4, &x8, &x12)
      quarterRound(&x1, &x5, &x9, &x13)
      quarterRound(&x2, &x6, &x10, &x14)
      quarterRound(&x3, &x7, &x11, &x15)
      quarterRound(&x0, &x5, &x10, &x15)
      quarterRound(&x1, &x6, &x11, &x12)
      quarterRound(&x2, &x7, &x8, &x13)
      quarterRound(&x3, &x4, &x9, &x14)
    }
    let output = [
      x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15,
    ]
    block.withUnsafeMutableBufferPointer { bytes in
      for index in 0..<16 {
        let word = output[index] &+ initial[index]
        bytes[index * 4] = UInt8(truncatingIfNeeded: word)
        bytes[index * 4 + 1] = UInt8(truncatingIfNeeded: word >> 8)
        bytes[index * 4 + 2] = UInt8(truncatingIfNeeded: word >> 16)
        bytes[index * 4 + 3] = UInt8(truncatingIfNeeded: word >> 24)
      }
    }
  }
}
