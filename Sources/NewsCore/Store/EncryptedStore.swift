import Foundation

/// A directory of encrypted, authenticated JSON files: the only way the program writes to disk.
///
/// Each file is `<name>.enc` in ``EncryptedFileFormat``. Reads need no lock (writes replace files
/// atomically); read-modify-write updates hold an exclusive `flock` on `.lock`, so concurrent
/// processes never lose an update. A file that fails to decrypt is reported and never replaced.
public struct EncryptedStore: Sendable {
  /// The directory holding the files.
  public let directory: URL
  private let key: StoreKey
  private let randomBytes: @Sendable (Int) -> [UInt8]

  /// Creates a store in `directory` (created with mode 0700 on first write).
  ///
  /// - Parameter randomBytes: the nonce source; tests may make it deterministic.
  public init(
    directory: URL, key: StoreKey,
    randomBytes: @escaping @Sendable (Int) -> [UInt8] = SecureRandom.bytes
  ) {
    self.directory = directory
    self.key = key
    self.randomBytes = randomBytes
  }

  /// The file holding `name`.
  public func url(for name: String) -> URL {
    directory.appendingPathComponent(name + ".enc")
  }

  /// Reads and decrypts `name`; `nil` when it does not exist.
  public func read<T: Decodable>(_ type: T.Type, name: String) throws -> T? {
    guard let bytes = try readBytes(name) else { return nil }
    do {
      return try Self.decoder.decode(T.self, from: Data(bytes))
    } catch {
      throw StoreError.unreadableContent(
        path: url(for: name).path, detail: DecodingErrorDescription.describe(error))
    }
  }

  /// Encrypts `value` and atomically replaces `name` with it.
  public func write<T: Encodable>(_ value: T, name: String) throws {
    try AtomicFile.createDirectory(directory)
    try writeBytes(Array(try Self.encoder.encode(value)), name: name)
  }

  /// Reads `name` (or `initial`), lets `transform` change it and writes it back, all under the
  /// store's lock. Returns the new value. If the file cannot be decrypted nothing is written.
  @discardableResult
  public func update<T: Codable>(
    _ name: String, initial: @autoclosure () -> T, _ transform: (inout T) throws -> Void
  ) throws -> T {
    try withLock {
      var value = try read(T.self, name: name) ?? initial()
      try transform(&value)
      try writeBytes(Array(try Self.encoder.encode(value)), name: name)
      return value
    }
  }

  /// Runs `body` holding the store's exclusive lock.
  @discardableResult
  public func withLock<T>(wait: Bool = true, _ body: () throws -> T) throws -> T {
    try AtomicFile.createDirectory(directory)
    return try FileLock.withLock(directory.appendingPathComponent(".lock"), wait: wait, body)
  }

  /// The names of the files in the store.
  public func names() -> [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return files.filter { $0.hasSuffix(".enc") && !$0.hasPrefix(".") }
      .map { String($0.dropLast(4)) }.sorted()
  }

  /// Checks that `name` decrypts, without decoding it.
  public func verify(_ name: String) throws {
    _ = try readBytes(name)
  }

  func readBytes(_ name: String) throws -> [UInt8]? {
    let url = url(for: name)
    guard let data = FileManager.default.contents(atPath: url.path) else {
      if FileManager.default.fileExists(atPath: url.path) {
        throw StoreError.io(path: url.path, operation: "read", reason: "permission denied")
      }
      return nil
    }
    do {
      return try EncryptedFileFormat.open(Array(data), name: name, key: key.bytes)
    } catch .notAStoreFile {
      throw StoreError.notAStoreFile(path: url.path)
    } catch .unsupportedVersion(let version) {
      throw StoreError.unsupportedVersion(path: url.path, version: version)
    } catch {
      throw StoreError.undecryptable(path: url.path)
    }
  }

  func writeBytes(_ plaintext: [UInt8], name: String, beforeRename: (() throws -> Void)? = nil)
    throws
  {
    try AtomicFile.createDirectory(directory)
    let sealed = EncryptedFileFormat.seal(
      plaintext, name: name, key: key.bytes, nonce: randomBytes(ChaChaPoly.nonceLength))
    try AtomicFile.write(sealed, to: url(for: name), beforeRename: beforeRename)
  }

  private static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    // URLs are most of what is stored: unescaped slashes keep the files smaller and faster to read.
    encoder.outputFormatting = [.withoutEscapingSlashes]
    return encoder
  }()

  private static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    return decoder
  }()
}
