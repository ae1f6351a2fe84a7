import Testing

@testable import NewsCore

/// The hashing `news serve` keeps its password with, against the standards' own vectors.
@Suite("SHA-256, HMAC-SHA256 and PBKDF2 against their published vectors")
struct PBKDF2Tests {
  static func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
  }

  @Test(
    "SHA-256 (FIPS 180-4's examples, and a message over one block)",
    arguments: [
      ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
      ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
      (
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
      ),
    ])
  func sha256(message: String, digest: String) {
    #expect(Self.hex(SHA256.digest(Array(message.utf8))) == digest)
  }

  @Test("HMAC-SHA256 (RFC 4231's cases 1, 2 and 6: a key longer than a block)")
  func hmac() {
    #expect(
      Self.hex(SHA256.hmac(key: [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8)))
        == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    #expect(
      Self.hex(SHA256.hmac(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8)))
        == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    #expect(
      Self.hex(
        SHA256.hmac(
          key: [UInt8](repeating: 0xaa, count: 131),
          Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
        == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
  }

  @Test(
    "PBKDF2-HMAC-SHA256 (RFC 7914's first vector; 1, 2 and 4096 rounds of 'password')",
    arguments: [
      (
        "passwd", "salt", 1, 64,
        "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
          + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"
      ),
      (
        "password", "salt", 1, 32,
        "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b"
      ),
      (
        "password", "salt", 2, 32,
        "ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43"
      ),
      (
        "password", "salt", 4096, 32,
        "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a"
      ),
    ] as [(String, String, Int, Int, String)])
  func pbkdf2(password: String, salt: String, iterations: Int, length: Int, expected: String) {
    let derived = PBKDF2.derive(
      password: Array(password.utf8), salt: Array(salt.utf8), iterations: iterations,
      length: length)
    #expect(Self.hex(derived) == expected)
  }

  @Test("the comparison: equal, a byte apart, a length apart")
  func comparison() {
    #expect(PBKDF2.constantTimeEqual([1, 2, 3], [1, 2, 3]))
    #expect(!PBKDF2.constantTimeEqual([1, 2, 3], [1, 2, 4]))
    #expect(!PBKDF2.constantTimeEqual([1, 2, 3], [1, 2]))
  }
}
