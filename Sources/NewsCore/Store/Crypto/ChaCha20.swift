/// The ChaCha20 stream cipher of RFC 8439, section 2.4.
///
/// Additions, rotations and XORs only: no branch or table lookup depends on the key or the data,
/// so its timing does not leak them. Works in place on raw memory, a 64-byte block at a time with
/// the state in locals, because this is the hot path of every store read and write.
enum ChaCha20 {
  /// XORs `data` with the key stream for `key` and `nonce`, starting at block `counter`.
  static func xor(_ data: inout [UInt8], key: [UInt8], nonce: [UInt8], counter: UInt32) {
    data.withUnsafeMutableBytes { xor($0, key: key, nonce: nonce, counter: counter) }
  }

  /// XORs the bytes at `buffer` in place.
  static func xor(
    _ buffer: UnsafeMutableRawBufferPointer, key: [UInt8], nonce: [UInt8], counter: UInt32
  ) {
    precondition(key.count == 32 && nonce.count == 12)
    let state = State(key: key, nonce: nonce)
    var blockCounter = counter
    var offset = 0
    var partial = [UInt8](repeating: 0, count: 64)
    while offset < buffer.count {
      let length = min(64, buffer.count - offset)
      if length == 64 {
        state.block(counter: blockCounter, xorInto: buffer.baseAddress! + offset)
      } else {
        // The last, partial block: through a scratch block so that nothing past the end is read.
        partial.withUnsafeMutableBytes { scratch in
          scratch.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[offset..<buffer.count]))
          state.block(counter: blockCounter, xorInto: scratch.baseAddress!)
          UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<buffer.count]).copyMemory(
            from: UnsafeRawBufferPointer(rebasing: scratch[0..<length]))
        }
      }
      offset += 64
      blockCounter &+= 1
    }
  }

  /// The 64-byte key-stream block for `counter` (section 2.3).
  static func block(key: [UInt8], counter: UInt32, nonce: [UInt8]) -> [UInt8] {
    var block = [UInt8](repeating: 0, count: 64)
    xor(&block, key: key, nonce: nonce, counter: counter)
    return block
  }

  /// Key and nonce as little-endian words.
  private struct State {
    var k0, k1, k2, k3, k4, k5, k6, k7: UInt32
    var n0, n1, n2: UInt32

    init(key: [UInt8], nonce: [UInt8]) {
      func word(_ bytes: [UInt8], _ index: Int) -> UInt32 {
        UInt32(bytes[index * 4]) | UInt32(bytes[index * 4 + 1]) << 8
          | UInt32(bytes[index * 4 + 2]) << 16 | UInt32(bytes[index * 4 + 3]) << 24
      }
      (k0, k1, k2, k3) = (word(key, 0), word(key, 1), word(key, 2), word(key, 3))
      (k4, k5, k6, k7) = (word(key, 4), word(key, 5), word(key, 6), word(key, 7))
      (n0, n1, n2) = (word(nonce, 0), word(nonce, 1), word(nonce, 2))
    }

    @inline(__always)
    func block(counter: UInt32, xorInto pointer: UnsafeMutableRawPointer) {
      let (c0, c1, c2, c3): (UInt32, UInt32, UInt32, UInt32) = (
        0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574
      )
      var (x0, x1, x2, x3) = (c0, c1, c2, c3)
      var (x4, x5, x6, x7) = (k0, k1, k2, k3)
      var (x8, x9, x10, x11) = (k4, k5, k6, k7)
      var (x12, x13, x14, x15) = (counter, n0, n1, n2)

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

      @inline(__always)
      func mix(_ index: Int, _ word: UInt32) {
        let offset = index * 4
        let value = pointer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        pointer.storeBytes(of: value ^ word.littleEndian, toByteOffset: offset, as: UInt32.self)
      }
      mix(0, x0 &+ c0)
      mix(1, x1 &+ c1)
      mix(2, x2 &+ c2)
      mix(3, x3 &+ c3)
      mix(4, x4 &+ k0)
      mix(5, x5 &+ k1)
      mix(6, x6 &+ k2)
      mix(7, x7 &+ k3)
      mix(8, x8 &+ k4)
      mix(9, x9 &+ k5)
      mix(10, x10 &+ k6)
      mix(11, x11 &+ k7)
      mix(12, x12 &+ counter)
      mix(13, x13 &+ n0)
      mix(14, x14 &+ n1)
      mix(15, x15 &+ n2)
    }

    @inline(__always)
    private func quarterRound(
      _ a: inout UInt32, _ b: inout UInt32, _ c: inout UInt32, _ d: inout UInt32
    ) {
      a = a &+ b
      d ^= a
      d = (d << 16) | (d >> 16)
      c = c &+ d
      b ^= c
      b = (b << 12) | (b >> 20)
      a = a &+ b
      d ^= a
      d = (d << 8) | (d >> 24)
      c = c &+ d
      b ^= c
      b = (b << 7) | (b >> 25)
    }
  }
}
