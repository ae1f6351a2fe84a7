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

  static func open(_ bytes: [UInt8], name: String, key: [UInt8]) throws(Failure) -> [UInt8] {
    guard bytes.count >= overhead, Array(bytes[0..<4]) == magic else { throw .notAStoreFile }
    guard bytes[4] == version else { throw .unsupportedVersion(bytes[4]) }
    let nonce = Array(bytes[5..<17])
    let ciphertext = Array(bytes[17..<(bytes.count - ChaChaPoly.tagLength)])
    let tag = Array(bytes[(bytes.count - ChaChaPoly.tagLength)...])
    guard
      let plaintext = ChaChaPoly.open(
        ciphertext, tag: tag, key: key, nonce: nonce, additionalData: associatedData(name))
    else { throw .authenticationFailed }
    return plaintext
  }

  private static func associatedData(_ name: String) -> [UInt8] {
    magic + [version] + Array(name.utf8)
  }
}
