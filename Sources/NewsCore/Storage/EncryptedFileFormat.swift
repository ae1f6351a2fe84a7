/// The layout of every file in the store:
///
///     "NEWS" (4 bytes) | version (1 byte, 1) | nonce (12) | ciphertext | tag (16)
///
/// The ciphertext is ChaCha20-Poly1305 of the file's JSON. The associated data is the magic, the
/// version and the file's logical name, so a file renamed or copied over another does not open.
enum EncryptedFileFormat {
  static let magic: [UInt8] = Array("NEWS".utf8)
  static let version: UInt8 = 1
  static let overhead = magic.count + 1 + ChaChaPoly.nonceLength + ChaChaPoly.tagLength

  static func seal(_ plaintext: [UInt8], name: String, key: [UInt8], nonce: [UInt8]) -> [UInt8] {
    let sealed = ChaChaPoly.seal(
      plaintext, key: key, nonce: nonce, additionalData: associatedData(name))
    return magic + [version] + nonce + sealed.ciphertext + sealed.tag
  }

  enum Failure: Error, Equatable {
    case notAStoreFile
    case unsupportedVersion(UInt8)
    case authenticationFailed
  }

  /// Decrypts the file's `bytes` in place, leaving the plaintext in them (no other copy of a
  /// large file is made).
  static func open(_ bytes: inout [UInt8], name: String, key: [UInt8]) throws(Failure) {
    let (nonce, tag) = try parts(bytes)
    let header = magic.count + 1 + ChaChaPoly.nonceLength
    let authentic = bytes.withUnsafeMutableBytes { buffer in
      ChaChaPoly.open(
        inPlace: UnsafeMutableRawBufferPointer(
          rebasing: buffer[header..<(buffer.count - ChaChaPoly.tagLength)]),
        tag: tag, key: key, nonce: nonce, additionalData: associatedData(name))
    }
    guard authentic else { throw .authenticationFailed }
    bytes.removeLast(ChaChaPoly.tagLength)
    bytes.removeFirst(header)
  }

  /// Checks that the file's `bytes` are authentic without decrypting them.
  static func verify(_ bytes: [UInt8], name: String, key: [UInt8]) throws(Failure) {
    let (nonce, tag) = try parts(bytes)
    let header = magic.count + 1 + ChaChaPoly.nonceLength
    let authentic = bytes.withUnsafeBytes { buffer in
      ChaChaPoly.authenticates(
        UnsafeRawBufferPointer(rebasing: buffer[header..<(buffer.count - ChaChaPoly.tagLength)]),
        tag: tag, key: key, nonce: nonce, additionalData: associatedData(name))
    }
    guard authentic else { throw .authenticationFailed }
  }

  /// The nonce and tag of a file in this format.
  private static func parts(_ bytes: [UInt8]) throws(Failure) -> (nonce: [UInt8], tag: [UInt8]) {
    guard bytes.count >= overhead, Array(bytes[0..<4]) == magic else { throw .notAStoreFile }
    guard bytes[4] == version else { throw .unsupportedVersion(bytes[4]) }
    return (Array(bytes[5..<17]), Array(bytes[(bytes.count - ChaChaPoly.tagLength)...]))
  }

  private static func associatedData(_ name: String) -> [UInt8] {
    magic + [version] + Array(name.utf8)
  }
}
