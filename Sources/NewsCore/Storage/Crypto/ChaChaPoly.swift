/// The ChaCha20-Poly1305 AEAD construction of RFC 8439, section 2.8.
public enum ChaChaPoly {
  /// Length of a key in bytes.
  public static let keyLength = 32
  /// Length of a nonce in bytes.
  public static let nonceLength = 12
  /// Length of a tag in bytes.
  public static let tagLength = 16

  /// Encrypts `plaintext` and authenticates it together with `additionalData`.
  ///
  /// - Returns: the ciphertext (as long as the plaintext) and the 16-byte tag.
  public static func seal(
    _ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], additionalData: [UInt8] = []
  ) -> (ciphertext: [UInt8], tag: [UInt8]) {
    var ciphertext = plaintext
    let tag = ciphertext.withUnsafeMutableBytes {
      process($0, sealing: true, key: key, nonce: nonce, additionalData: additionalData)
    }
    return (ciphertext, tag)
  }

  /// Checks the tag of `ciphertext` without decrypting it (nothing is copied).
  static func authenticates(
    _ ciphertext: UnsafeRawBufferPointer, tag: [UInt8], key: [UInt8], nonce: [UInt8],
    additionalData: [UInt8]
  ) -> Bool {
    var poly = Poly1305(key: oneTimeKey(key: key, nonce: nonce))
    additionalData.withUnsafeBytes { poly.updatePadded($0) }
    poly.updatePadded(ciphertext)
    let lengths =
      littleEndian(UInt64(additionalData.count)) + littleEndian(UInt64(ciphertext.count))
    lengths.withUnsafeBytes { poly.updatePadded($0) }
    return tag.count == tagLength && constantTimeEqual(poly.finish(), tag)
  }

  /// Decrypts `buffer` in place, computing the tag on the way; whether it matches `tag`. When
  /// it does not, the buffer holds nothing usable and must be thrown away.
  static func open(
    inPlace buffer: UnsafeMutableRawBufferPointer, tag: [UInt8], key: [UInt8], nonce: [UInt8],
    additionalData: [UInt8]
  ) -> Bool {
    let expected = process(
      buffer, sealing: false, key: key, nonce: nonce, additionalData: additionalData)
    return tag.count == tagLength && constantTimeEqual(expected, tag)
  }

  /// Checks the tag and decrypts; `nil` when the tag does not match (wrong key, tampering).
  public static func open(
    _ ciphertext: [UInt8], tag: [UInt8], key: [UInt8], nonce: [UInt8],
    additionalData: [UInt8] = []
  ) -> [UInt8]? {
    var plaintext = ciphertext
    let expected = plaintext.withUnsafeMutableBytes {
      process($0, sealing: false, key: key, nonce: nonce, additionalData: additionalData)
    }
    // The plaintext is only returned once the tag is known to be right.
    guard tag.count == tagLength, constantTimeEqual(expected, tag) else { return nil }
    return plaintext
  }

  /// Bytes enciphered, then authenticated, at a time: the cipher (vector unit) and the
  /// authenticator (integer multiplier) of neighbouring pieces then run side by side in the
  /// processor instead of one pass after the other.
  private static let pieceLength = ChaCha20.wideLength

  /// Encrypts (`sealing`) or decrypts `buffer` in place and returns the tag of the ciphertext:
  /// Poly1305 over `aad | pad16 | ciphertext | pad16 | le64(aad length) | le64(ciphertext length)`.
  private static func process(
    _ buffer: UnsafeMutableRawBufferPointer, sealing: Bool, key: [UInt8], nonce: [UInt8],
    additionalData aad: [UInt8]
  ) -> [UInt8] {
    let stream = ChaCha20.Stream(key: key, nonce: nonce)
    var poly = Poly1305(key: oneTimeKey(key: key, nonce: nonce))
    aad.withUnsafeBytes { poly.updatePadded($0) }
    var offset = 0
    while offset < buffer.count {
      let piece = UnsafeMutableRawBufferPointer(
        rebasing: buffer[offset..<min(offset + pieceLength, buffer.count)])
      if !sealing { poly.updatePadded(UnsafeRawBufferPointer(piece)) }
      stream.xor(piece, counter: 1 + UInt32(offset / 64))
      if sealing { poly.updatePadded(UnsafeRawBufferPointer(piece)) }
      offset += pieceLength
    }
    let lengths = littleEndian(UInt64(aad.count)) + littleEndian(UInt64(buffer.count))
    lengths.withUnsafeBytes { poly.updatePadded($0) }
    return poly.finish()
  }

  static func oneTimeKey(key: [UInt8], nonce: [UInt8]) -> [UInt8] {
    Array(ChaCha20.block(key: key, counter: 0, nonce: nonce).prefix(32))
  }

  private static func littleEndian(_ value: UInt64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
  }

  /// Compares without an early exit, so the time taken does not tell where they differ.
  static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in 0..<a.count { difference |= a[index] ^ b[index] }
    return difference == 0
  }
}
