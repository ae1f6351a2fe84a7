import Testing

@testable import FeedParsing
@testable import NewsCore

/// RFC 8439 test vectors.
@Suite("ChaCha20-Poly1305 (RFC 8439)")
struct ChaChaPolyTests {
  static func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { $0.isHexDigit })
    return stride(from: 0, to: digits.count, by: 2).map {
      UInt8(String(digits[$0...$0 + 1]), radix: 16)!
    }
  }

  static let sunscreen = Array(
    ("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the "
      + "future, sunscreen would be it.").utf8)

  @Test("2.4.2: ChaCha20 encryption")
  func chacha20() {
    var data = Self.sunscreen
    ChaCha20.xor(
      &data, key: Array(0...31), nonce: Self.hex("000000000000004a00000000"), counter: 1)
    #expect(
      data
        == Self.hex(
          """
          6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b
          f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8
          07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736
          5af90bbf74a35be6b40b8eedf2785e42874d
          """))
  }

  @Test(
    "four blocks at a time in place give the key stream of each block on its own, counter wrapping",
    arguments: [UInt32(0), 1, 7, UInt32.max - 5])
  func wideEqualsNarrow(counter: UInt32) {
    let key = (0..<32).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
    let nonce = Self.hex("000000090000004a00000001")
    // 1,000 bytes: three four-block groups, three single blocks and a partial one; the counter
    // may wrap inside a group.
    var stream = [UInt8](repeating: 0, count: 1000)
    ChaCha20.xor(&stream, key: key, nonce: nonce, counter: counter)
    let expected = (0..<16).flatMap {
      ChaCha20.block(key: key, counter: counter &+ UInt32($0), nonce: nonce)
    }
    #expect(stream == Array(expected.prefix(1000)))
  }

  @Test("the lanes of a debug build compute what SIMD4 computes, laid out as SIMD4 is")
  func scalarLanes() {
    typealias Scalar = ChaCha20.ScalarLanes
    func scalar(_ vector: SIMD4<UInt32>) -> Scalar {
      Scalar(vector[0], vector[1], vector[2], vector[3])
    }
    var generator = SeededGenerator(seed: 8439)
    func random() -> SIMD4<UInt32> {
      SIMD4((0..<4).map { _ in UInt32.random(in: .min ... .max, using: &generator) })
    }
    for _ in 0..<500 {
      let (left, right) = (random(), random())
      let count = UInt32.random(in: 0...31, using: &generator)
      #expect(scalar(left &+ right) == scalar(left) &+ scalar(right))
      var (sum, scalarSum) = (left, scalar(left))
      sum &+= right
      scalarSum &+= scalar(right)
      #expect(scalar(sum) == scalarSum)
      var (mixed, scalarMixed) = (left, scalar(left))
      mixed ^= right
      scalarMixed ^= scalar(right)
      #expect(scalar(mixed) == scalarMixed)
      #expect(scalar(left | right) == scalar(left) | scalar(right))
      #expect(scalar(left &<< count) == scalar(left) &<< count)
      #expect(scalar(left &>> count) == scalar(left) &>> count)
      #expect(scalar(SIMD4(repeating: count)) == Scalar(repeating: count))
    }
    #expect(MemoryLayout<Scalar>.size == MemoryLayout<SIMD4<UInt32>>.size)
    var lanes = Scalar(1, 2, 3, 4)
    let words = withUnsafeBytes(of: &lanes) { Array($0.bindMemory(to: UInt32.self)) }
    #expect(words == [1, 2, 3, 4])
  }

  @Test("2.3.2: the ChaCha20 block function")
  func block() {
    let block = ChaCha20.block(
      key: Array(0...31), counter: 1, nonce: Self.hex("000000090000004a00000000"))
    #expect(
      block
        == Self.hex(
          """
          10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e
          d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e
          """))
  }

  @Test("2.5.2: Poly1305 message authentication")
  func poly1305() {
    let key = Self.hex(
      "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b")
    let tag = Poly1305.tag(Array("Cryptographic Forum Research Group".utf8), key: key)
    #expect(tag == Self.hex("a8061dc1305136c6c22b8baf0c0127a9"))
  }

  @Test(
    "A.3: Poly1305 vectors that exercise the carries and the final reduction",
    arguments: [
      // #5: h reaches 2^130 - 5 + 1 (carry out of the top limb).
      (
        "02" + String(repeating: "00", count: 31), String(repeating: "FF", count: 16),
        "03" + String(repeating: "00", count: 15)
      ),
      // #6: s added to h overflows 128 bits.
      (
        "02" + String(repeating: "00", count: 15) + String(repeating: "FF", count: 16),
        "02" + String(repeating: "00", count: 15), "03" + String(repeating: "00", count: 15)
      ),
      // #7: carries propagating through every limb.
      (
        "01" + String(repeating: "00", count: 31),
        String(repeating: "FF", count: 16) + "F0" + String(repeating: "FF", count: 15) + "11"
          + String(repeating: "00", count: 15),
        "05" + String(repeating: "00", count: 15)
      ),
      // #8: a result of exactly 2^130 - 5 must reduce to 0.
      (
        "01" + String(repeating: "00", count: 31),
        String(repeating: "FF", count: 16) + "FB" + String(repeating: "FE", count: 15)
          + String(repeating: "01", count: 16),
        String(repeating: "00", count: 16)
      ),
      // #9: a result of exactly 2^130 - 6.
      (
        "02" + String(repeating: "00", count: 31), "FD" + String(repeating: "FF", count: 15),
        "FA" + String(repeating: "FF", count: 15)
      ),
      // #10: 5*H+L reduction with a 131-bit intermediate result.
      (
        "0100000000000000040000000000000000000000000000000000000000000000",
        "E33594D7505E43B900000000000000003394D7505E4379CD010000000000000000000000000000000000000000000000"
          + "01000000000000000000000000000000",
        "14000000000000005500000000000000"
      ),
      // #11: the same with a 131-bit final result.
      (
        "0100000000000000040000000000000000000000000000000000000000000000",
        "E33594D7505E43B900000000000000003394D7505E4379CD010000000000000000000000000000000000000000000000",
        "13000000000000000000000000000000"
      ),
    ])
  func poly1305Edges(key: String, message: String, tag: String) {
    #expect(Poly1305.tag(Self.hex(message), key: Self.hex(key)) == Self.hex(tag))
  }

  @Test("2.6.2: Poly1305 key generation with ChaCha20")
  func oneTimeKey() {
    let key = ChaChaPoly.oneTimeKey(
      key: Array(0x80...0x9f), nonce: Self.hex("000000000001020304050607"))
    #expect(
      key == Self.hex("8ad5a08b905f81cc815040274ab29471a833b637e3fd0da508dbb8e2fdd1a646"))
  }

  @Test("2.8.2: AEAD encryption")
  func seal() {
    let sealed = ChaChaPoly.seal(
      Self.sunscreen, key: Array(0x80...0x9f), nonce: Self.hex("070000004041424344454647"),
      additionalData: Self.hex("50515253c0c1c2c3c4c5c6c7"))
    #expect(
      sealed.ciphertext
        == Self.hex(
          """
          d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6
          3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36
          92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc
          3ff4def08e4b7a9de576d26586cec64b6116
          """))
    #expect(sealed.tag == Self.hex("1ae10b594f09e26a7e902ecbd0600691"))
  }

  static let a5Ciphertext = hex(
    """
    64a0861575861af460f062c79be643bd5e805cfd345cf389f108670ac76c8cb2
    4c6cfc18755d43eea09ee94e382d26b0bdb7b73c321b0100d4f03b7f355894cf
    332f830e710b97ce98c8a84abd0b948114ad176e008d33bd60f982b1ff37c855
    9797a06ef4f0ef61c186324e2b3506383606907b6a7c02b0f9f6157b53c867e4
    b9166c767b804d46a59b5216cde7a4e99040c5a40433225ee282a1b0a06c523e
    af4534d7f83fa1155b0047718cbc546a0d072b04b3564eea1b422273f548271a
    0bb2316053fa76991955ebd63159434ecebb4e466dae5a1073a6727627097a10
    49e617d91d361094fa68f0ff77987130305beaba2eda04df997b714d6c6f2c29
    a6ad5cb4022b02709b
    """)
  static let a5Key = hex("1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0")
  static let a5Nonce = hex("000000000102030405060708")
  static let a5AAD = hex("f33388860000000000004e91")
  static let a5Tag = hex("eead9d67890cbb22392336fea1851f38")

  @Test("A.5: AEAD decryption")
  func open() throws {
    let plaintext = try #require(
      ChaChaPoly.open(
        Self.a5Ciphertext, tag: Self.a5Tag, key: Self.a5Key, nonce: Self.a5Nonce,
        additionalData: Self.a5AAD))
    #expect(
      String(decoding: plaintext, as: UTF8.self)
        == "Internet-Drafts are draft documents valid for a maximum of six months and may be "
        + "updated, replaced, or obsoleted by other documents at any time. It is inappropriate to "
        + "use Internet-Drafts as reference material or to cite them other than as "
        + "/\u{201C}work in progress./\u{201D}")
  }

  @Test(
    "A.5 with any one bit flipped is refused",
    arguments: ["ciphertext", "tag", "aad", "nonce", "key"])
  func tampering(part: String) {
    func flip(_ bytes: [UInt8], _ target: String) -> [UInt8] {
      guard part == target else { return bytes }
      var copy = bytes
      copy[copy.count / 2] ^= 0x01
      return copy
    }
    let opened = ChaChaPoly.open(
      flip(Self.a5Ciphertext, "ciphertext"), tag: flip(Self.a5Tag, "tag"),
      key: flip(Self.a5Key, "key"), nonce: flip(Self.a5Nonce, "nonce"),
      additionalData: flip(Self.a5AAD, "aad"))
    #expect(opened == nil)
  }

  @Test("round trips at block boundaries", arguments: [0, 1, 15, 16, 17, 63, 64, 65, 1000])
  func roundTrip(length: Int) throws {
    let key = Array(repeating: UInt8(7), count: 32)
    let nonce = Array(repeating: UInt8(9), count: 12)
    let plaintext = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 31) }
    let sealed = ChaChaPoly.seal(plaintext, key: key, nonce: nonce, additionalData: [1, 2, 3])
    #expect(sealed.ciphertext.count == length)
    let opened = ChaChaPoly.open(
      sealed.ciphertext, tag: sealed.tag, key: key, nonce: nonce, additionalData: [1, 2, 3])
    #expect(opened == plaintext)
  }

  @Test("tags compare in constant time but correctly")
  func compare() {
    #expect(ChaChaPoly.constantTimeEqual([1, 2, 3], [1, 2, 3]))
    #expect(!ChaChaPoly.constantTimeEqual([1, 2, 3], [1, 2, 4]))
    #expect(!ChaChaPoly.constantTimeEqual([1, 2], [1, 2, 3]))
  }
}
