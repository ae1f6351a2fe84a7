/// The ChaCha20 stream cipher of RFC 8439, section 2.4.
///
/// Additions, rotations and XORs only: no branch or table lookup depends on the key or the data,
/// so its timing does not leak them. Works in place on raw memory, because this is the hot path
/// of every store read and write: four blocks at a time "vertically" (each of the 16 state words
/// four lanes, `SIMD4<UInt32>` (``Lanes``), one block per lane, transposed once at the end), the
/// last partial group through a scratch area.
enum ChaCha20 {
  /// Bytes the vertical path handles at once: four blocks.
  static let wideLength = 256

  /// XORs `data` with the key stream for `key` and `nonce`, starting at block `counter`.
  static func xor(_ data: inout [UInt8], key: [UInt8], nonce: [UInt8], counter: UInt32) {
    data.withUnsafeMutableBytes { xor($0, key: key, nonce: nonce, counter: counter) }
  }

  /// XORs the bytes at `buffer` in place.
  static func xor(
    _ buffer: UnsafeMutableRawBufferPointer, key: [UInt8], nonce: [UInt8], counter: UInt32
  ) {
    Stream(key: key, nonce: nonce).xor(buffer, counter: counter)
  }

  /// A key and nonce ready to XOR key stream into memory, piece by piece (the AEAD interleaves
  /// the cipher with the authenticator a few blocks at a time).
  struct Stream {
    private let state: State
    private let rotations = Rotations()

    init(key: [UInt8], nonce: [UInt8]) {
      precondition(key.count == 32 && nonce.count == 12)
      state = State(key: key, nonce: nonce)
    }

    /// XORs the bytes at `buffer` in place with the key stream from block `counter`.
    func xor(_ buffer: UnsafeMutableRawBufferPointer, counter: UInt32) {
      var blockCounter = counter
      var offset = 0
      while buffer.count - offset >= wideLength {
        state.blocks4(
          counter: blockCounter, rotations: rotations, xorInto: buffer.baseAddress! + offset)
        offset += wideLength
        blockCounter &+= 4
      }
      guard offset < buffer.count else { return }
      // The last, partial group: through a scratch area so that nothing past the end is read
      // or written (the key stream of the blocks past the end is thrown away).
      let length = buffer.count - offset
      withUnsafeTemporaryAllocation(byteCount: wideLength, alignment: 16) { scratch in
        scratch.initializeMemory(as: UInt8.self, repeating: 0)
        scratch.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[offset...]))
        state.blocks4(counter: blockCounter, rotations: rotations, xorInto: scratch.baseAddress!)
        UnsafeMutableRawBufferPointer(rebasing: buffer[offset...]).copyMemory(
          from: UnsafeRawBufferPointer(rebasing: scratch[0..<length]))
      }
    }
  }

  /// The 64-byte key-stream block for `counter` (section 2.3).
  static func block(key: [UInt8], counter: UInt32, nonce: [UInt8]) -> [UInt8] {
    var block = [UInt8](repeating: 0, count: 64)
    xor(&block, key: key, nonce: nonce, counter: counter)
    return block
  }

  /// The rotation counts of the quarter round, as values the optimizer cannot see.
  ///
  /// With constant counts LLVM recognises `(x << n) | (x >> (32 - n))` as a rotation and, as
  /// baseline x86-64 (SSE2) has no vector rotation, splits every `SIMD4` rotation into four
  /// scalar `rol`s: a third of the speed. Counts it cannot see become whole-vector shifts
  /// (`pslld`/`psrld`/`por`). `opaque` is compiled without optimization, so its result is not
  /// folded back into a constant.
  struct Rotations {
    let left16, right16, left12, right20, left8, right24, left7, right25: UInt32

    init() {
      (left16, right16) = (Self.opaque(16), Self.opaque(16))
      (left12, right20) = (Self.opaque(12), Self.opaque(20))
      (left8, right24) = (Self.opaque(8), Self.opaque(24))
      (left7, right25) = (Self.opaque(7), Self.opaque(25))
    }

    @_optimize(none) @inline(never)
    private static func opaque(_ value: UInt32) -> UInt32 { value }
  }

  /// The four blocks' words side by side: `SIMD4`, whose operations the optimizer makes vector
  /// instructions. Unoptimized, each is a generic call of a hundred nanoseconds (a third of the
  /// test suite's CPU went there), so a debug build uses ``ScalarLanes``, the same arithmetic on
  /// four words, which the compiler inlines even then.
  #if DEBUG
    typealias Lanes = ScalarLanes
  #else
    typealias Lanes = SIMD4<UInt32>
  #endif

  /// Four words, with the operations of `SIMD4<UInt32>` that the cipher uses, lane by lane, and
  /// its layout (lane `i` at byte `4 i`): each is the integers' own operator, inlined even in an
  /// unoptimized build.
  struct ScalarLanes: Equatable {
    var lane0, lane1, lane2, lane3: UInt32

    @_transparent
    init(_ lane0: UInt32, _ lane1: UInt32, _ lane2: UInt32, _ lane3: UInt32) {
      (self.lane0, self.lane1, self.lane2, self.lane3) = (lane0, lane1, lane2, lane3)
    }

    @_transparent
    init(repeating value: UInt32) { self.init(value, value, value, value) }

    @_transparent
    static func &+ (left: Self, right: Self) -> Self {
      Self(
        left.lane0 &+ right.lane0, left.lane1 &+ right.lane1, left.lane2 &+ right.lane2,
        left.lane3 &+ right.lane3)
    }

    @_transparent
    static func &+= (left: inout Self, right: Self) { left = left &+ right }

    @_transparent
    static func ^= (left: inout Self, right: Self) {
      left = Self(
        left.lane0 ^ right.lane0, left.lane1 ^ right.lane1, left.lane2 ^ right.lane2,
        left.lane3 ^ right.lane3)
    }

    @_transparent
    static func | (left: Self, right: Self) -> Self {
      Self(
        left.lane0 | right.lane0, left.lane1 | right.lane1, left.lane2 | right.lane2,
        left.lane3 | right.lane3)
    }

    @_transparent
    static func &<< (left: Self, count: UInt32) -> Self {
      Self(left.lane0 &<< count, left.lane1 &<< count, left.lane2 &<< count, left.lane3 &<< count)
    }

    @_transparent
    static func &>> (left: Self, count: UInt32) -> Self {
      Self(left.lane0 &>> count, left.lane1 &>> count, left.lane2 &>> count, left.lane3 &>> count)
    }
  }

  /// Key and nonce as little-endian words.
  struct State {
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

    /// XORs the four key-stream blocks from `counter` into the 256 bytes at `pointer`.
    @inline(__always)
    func blocks4(
      counter: UInt32, rotations r: Rotations, xorInto pointer: UnsafeMutableRawPointer
    ) {
      @inline(__always)
      func quarterRound(_ a: inout Lanes, _ b: inout Lanes, _ c: inout Lanes, _ d: inout Lanes) {
        a &+= b
        d ^= a
        d = (d &<< r.left16) | (d &>> r.right16)
        c &+= d
        b ^= c
        b = (b &<< r.left12) | (b &>> r.right20)
        a &+= b
        d ^= a
        d = (d &<< r.left8) | (d &>> r.right24)
        c &+= d
        b ^= c
        b = (b &<< r.left7) | (b &>> r.right25)
      }
      let counters = Lanes(counter, counter &+ 1, counter &+ 2, counter &+ 3)
      let initial: [Lanes] = [
        Lanes(repeating: 0x6170_7865), Lanes(repeating: 0x3320_646e),
        Lanes(repeating: 0x7962_2d32), Lanes(repeating: 0x6b20_6574),
        Lanes(repeating: k0), Lanes(repeating: k1), Lanes(repeating: k2), Lanes(repeating: k3),
        Lanes(repeating: k4), Lanes(repeating: k5), Lanes(repeating: k6), Lanes(repeating: k7),
        counters, Lanes(repeating: n0), Lanes(repeating: n1), Lanes(repeating: n2),
      ]
      var (x0, x1, x2, x3) = (initial[0], initial[1], initial[2], initial[3])
      var (x4, x5, x6, x7) = (initial[4], initial[5], initial[6], initial[7])
      var (x8, x9, x10, x11) = (initial[8], initial[9], initial[10], initial[11])
      var (x12, x13, x14, x15) = (initial[12], initial[13], initial[14], initial[15])
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
      // Word-major (word w of block b is lane b of x_w) to the blocks' order, through memory.
      var words = (
        x0 &+ initial[0], x1 &+ initial[1], x2 &+ initial[2], x3 &+ initial[3],
        x4 &+ initial[4], x5 &+ initial[5], x6 &+ initial[6], x7 &+ initial[7],
        x8 &+ initial[8], x9 &+ initial[9], x10 &+ initial[10], x11 &+ initial[11],
        x12 &+ initial[12], x13 &+ initial[13], x14 &+ initial[14], x15 &+ initial[15]
      )
      withUnsafeBytes(of: &words) { stream in
        for block in 0..<4 {
          let target = pointer + block * 64
          var word = 0
          while word < 16 {
            let low = UInt64(stream.load(fromByteOffset: word * 16 + block * 4, as: UInt32.self))
            let high = UInt64(
              stream.load(fromByteOffset: (word + 1) * 16 + block * 4, as: UInt32.self))
            let value = target.loadUnaligned(fromByteOffset: word * 4, as: UInt64.self)
            target.storeBytes(
              of: value ^ (low | high << 32).littleEndian, toByteOffset: word * 4, as: UInt64.self)
            word += 2
          }
        }
      }
    }
  }
}
