/// SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), for ``PBKDF2``: the password `news serve`
/// keeps is stretched with them.
///
/// Built for PBKDF2's 600,000 rounds a login: the hash runs on eight words held in a value and a
/// message schedule allocated once, and an HMAC key keeps the state after its padded blocks, so a
/// round of PBKDF2 is two compressions and no allocation (four compressions and a dozen arrays
/// before: a login took 1.4 s in a release build and 36 s in a debug one).
enum SHA256 {
  /// The eight words of a hash under way.
  struct State: Equatable {
    var a, b, c, d, e, f, g, h: UInt32

    /// FIPS 180-4's initial hash value.
    static let initial = State(
      a: 0x6a09_e667, b: 0xbb67_ae85, c: 0x3c6e_f372, d: 0xa54f_f53a, e: 0x510e_527f,
      f: 0x9b05_688c, g: 0x1f83_d9ab, h: 0x5be0_cd19)

    /// The 32 bytes of a finished hash, big-endian words.
    var bytes: [UInt8] {
      [a, b, c, d, e, f, g, h].flatMap { word in
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) }
      }
    }

    /// Each word XORed with `other`'s.
    mutating func formXOR(_ other: State) {
      a ^= other.a
      b ^= other.b
      c ^= other.c
      d ^= other.d
      e ^= other.e
      f ^= other.f
      g ^= other.g
      h ^= other.h
    }
  }

  /// Room for one block's message schedule (64 words), and the round constants beside it, read
  /// by pointer.
  final class Schedule {
    let words = UnsafeMutablePointer<UInt32>.allocate(capacity: 128)

    init() {
      (words + 64).initialize(from: SHA256.constants, count: 64)
    }

    deinit { words.deallocate() }
  }

  /// The 32-byte digest of `message`.
  static func digest(_ message: [UInt8]) -> [UInt8] {
    hash(message, from: .initial, after: 0, schedule: Schedule()).bytes
  }

  /// The hash of `message` continued from `state`, which has taken `earlier` bytes (a multiple
  /// of 64) already: the message is padded as the last part of `earlier + message.count` bytes.
  static func hash(_ message: [UInt8], from state: State, after earlier: Int, schedule: Schedule)
    -> State
  {
    var state = state
    var padded = message
    padded.append(0x80)
    while padded.count % 64 != 56 { padded.append(0) }
    let bits = UInt64(earlier + message.count) &* 8
    for shift in stride(from: 56, through: 0, by: -8) {
      padded.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
    }
    let words = schedule.words
    for start in stride(from: 0, to: padded.count, by: 64) {
      for index in 0..<16 {
        let at = start + index * 4
        words[index] =
          UInt32(padded[at]) << 24 | UInt32(padded[at + 1]) << 16 | UInt32(padded[at + 2]) << 8
          | UInt32(padded[at + 3])
      }
      compress(&state, words)
    }
    return state
  }

  /// The hash of a 32-byte message (`message`'s words) continued from `state`, which has taken
  /// one block: an HMAC's inner or outer hash of a digest, one compression.
  @inline(__always)
  static func hashDigest(_ message: State, from state: State, schedule: Schedule) -> State {
    var state = state
    let words = schedule.words
    (words[0], words[1], words[2], words[3]) = (message.a, message.b, message.c, message.d)
    (words[4], words[5], words[6], words[7]) = (message.e, message.f, message.g, message.h)
    words[8] = 0x8000_0000
    for index in 9..<15 { words[index] = 0 }
    // (64 + 32) bytes, in bits.
    words[15] = 768
    compress(&state, words)
    return state
  }

  /// One block (`words`' first 16, big-endian words) into `state`: `words` is a ``Schedule``'s
  /// (the rest of its 64 words the schedule's room, the round constants after them).
  @inline(__always)
  static func compress(_ state: inout State, _ words: UnsafeMutablePointer<UInt32>) {
    let constants = words + 64
    // `while` loops and transparent rotations: an unoptimized build (`swift run`) calls no
    // iterator and no function a step, which made a login there take seconds more.
    var index = 16
    while index < 64 {
      let early = words[index - 15]
      let late = words[index - 2]
      let s0 = rotate(early, 7) ^ rotate(early, 18) ^ (early &>> 3)
      let s1 = rotate(late, 17) ^ rotate(late, 19) ^ (late &>> 10)
      words[index] = words[index - 16] &+ s0 &+ words[index - 7] &+ s1
      index += 1
    }
    var (a, b, c, d) = (state.a, state.b, state.c, state.d)
    var (e, f, g, h) = (state.e, state.f, state.g, state.h)
    index = 0
    while index < 64 {
      let sum1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
      let choice = (e & f) ^ (~e & g)
      let first = h &+ sum1 &+ choice &+ constants[index] &+ words[index]
      let sum0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
      let majority = (a & b) ^ (a & c) ^ (b & c)
      let second = sum0 &+ majority
      h = g
      g = f
      f = e
      e = d &+ first
      d = c
      c = b
      b = a
      a = first &+ second
      index += 1
    }
    state.a &+= a
    state.b &+= b
    state.c &+= c
    state.d &+= d
    state.e &+= e
    state.f &+= f
    state.g &+= g
    state.h &+= h
  }

  /// HMAC-SHA256 of `message` under `key` (RFC 2104).
  static func hmac(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
    HMAC(key: key).authenticate(message)
  }

  /// A key made ready for many messages: the hash states after its inner and outer padded
  /// blocks, each computed once.
  struct HMAC {
    private let inner: State
    private let outer: State

    init(key: [UInt8]) {
      var block = key.count > 64 ? SHA256.digest(key) : key
      block += [UInt8](repeating: 0, count: 64 - block.count)
      let schedule = Schedule()
      func afterBlock(_ pad: UInt8) -> State {
        let words = schedule.words
        for index in 0..<16 {
          words[index] = (0..<4).reduce(0) { word, offset in
            word << 8 | UInt32(block[index * 4 + offset] ^ pad)
          }
        }
        var state = State.initial
        compress(&state, words)
        return state
      }
      inner = afterBlock(0x36)
      outer = afterBlock(0x5c)
    }

    /// The 32-byte code of `message`.
    func authenticate(_ message: [UInt8]) -> [UInt8] {
      authenticateWords(message, schedule: Schedule()).bytes
    }

    /// The code of `message`, as the hash's words.
    func authenticateWords(_ message: [UInt8], schedule: Schedule) -> State {
      let innerHash = SHA256.hash(message, from: inner, after: 64, schedule: schedule)
      return SHA256.hashDigest(innerHash, from: outer, schedule: schedule)
    }

    /// The code of a 32-byte message given as words (a PBKDF2 round): two compressions.
    @inline(__always)
    func authenticateDigest(_ message: State, schedule: Schedule) -> State {
      SHA256.hashDigest(
        SHA256.hashDigest(message, from: inner, schedule: schedule), from: outer,
        schedule: schedule)
    }
  }

  @_transparent
  private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
    (value &>> count) | (value &<< (32 &- count))
  }

  private static let constants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
    0xab1c_5ed5, 0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe,
    0x9bdc_06a7, 0xc19b_f174, 0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f,
    0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da, 0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
    0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967, 0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc,
    0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85, 0xa2bf_e8a1, 0xa81a_664b,
    0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070, 0x19a4_c116,
    0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
    0xc671_78f2,
  ]
}
