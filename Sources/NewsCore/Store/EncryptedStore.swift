import Foundation
import Synchronization

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
  /// What this process has already checked about the directory (shared by copies of the store).
  private let checked = CheckedState()

  /// The name of the small file that proves which key the store was written with.
  public static let keyCheckName = StoreLayout.keyCheck
  private static let keyCheckContent = Array("news store key check 1".utf8)

  private final class CheckedState: Sendable {
    let keyVerified = Mutex(false)
    let leftoversRemoved = Mutex(false)
  }

  /// Creates a store in `directory` (created with mode 0700 on first write).
  ///
  /// - Parameter randomBytes: the nonce source; tests may make it deterministic.
  public init(
    directory: URL, key: StoreKey,
    randomBytes: @escaping @Sendable (Int) -> [UInt8]
  ) {
    self.directory = directory
    self.key = key
    self.randomBytes = randomBytes
  }

  /// The file holding `name`.
  public func url(for name: String) -> URL {
    Self.url(for: name, in: directory)
  }

  /// The file holding `name` in the store of `directory`.
  static func url(for name: String, in directory: URL) -> URL {
    directory.appendingPathComponent(name + ".enc")
  }

  /// Whether the store of `directory` holds `name` (without a key: nothing is read).
  static func exists(_ name: String, in directory: URL) -> Bool {
    access(url(for: name, in: directory).path, F_OK) == 0
  }

  /// Whether the store holds `name`.
  func exists(_ name: String) -> Bool { Self.exists(name, in: directory) }

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

  /// Encrypts `value` and atomically replaces `name` with it, under the store's lock.
  ///
  /// Nothing is written when the key is not the store's (``StoreError/wrongKey(path:)``) or when
  /// the file in place does not open: a damaged file is never replaced.
  public func write<T: Encodable>(_ value: T, name: String) throws {
    let plaintext = Array(try Self.encoder.encode(value))
    try withLock {
      try checkBeforeReplacing(name)
      try writeBytes(plaintext, name: name)
    }
  }

  /// Encrypts `plaintext` (a record in a format of its own) and atomically replaces `name` with
  /// it, under the store's lock, with the same checks as ``write(_:name:)``.
  func write(bytes plaintext: [UInt8], name: String) throws {
    try withLock {
      try checkBeforeReplacing(name)
      try writeBytes(plaintext, name: name)
    }
  }

  /// Several files read and written under one hold of the store's lock (the lock is not taken
  /// again inside): writes keep their checks (a damaged file is never replaced).
  func transaction<T>(_ body: (Transaction) throws -> T) throws -> T {
    try withLock { try body(Transaction(store: self)) }
  }

  /// What ``transaction(_:)`` hands its body.
  struct Transaction {
    let store: EncryptedStore

    func read<T: Decodable>(_ type: T.Type, name: String) throws -> T? {
      try store.read(type, name: name)
    }

    func write<T: Encodable>(_ value: T, name: String) throws {
      let plaintext = Array(try EncryptedStore.encoder.encode(value))
      try store.checkBeforeReplacing(name)
      try store.writeBytes(plaintext, name: name)
    }

    /// Reads and decrypts `name`; `nil` when it does not exist.
    func readBytes(_ name: String) throws -> [UInt8]? {
      try store.readBytes(name)
    }

    /// Encrypts `plaintext` and atomically replaces `name` with it (a damaged file is never
    /// replaced).
    func write(bytes plaintext: [UInt8], name: String) throws {
      try store.checkBeforeReplacing(name)
      try store.writeBytes(plaintext, name: name)
    }

    /// Encrypts `plaintext` as the new file `name`, which must not exist yet (a segment file:
    /// numbers are never reused, so there is nothing to check first).
    func create(bytes plaintext: [UInt8], name: String) throws {
      try store.writeBytes(plaintext, name: name)
    }

    /// Replaces (or, for `nil`, removes) several files, each atomically, with one sync of the
    /// directory for them all: the read marks' files a merge changes.
    func replace(_ files: [(name: String, bytes: [UInt8]?)]) throws {
      for (name, bytes) in files {
        if let bytes {
          try store.checkBeforeReplacing(name)
          try store.writeBytes(bytes, name: name, syncingDirectory: false)
        } else {
          try remove(name)
        }
      }
      AtomicFile.syncDirectory(store.directory)
    }

    /// Deletes `name` if it exists.
    func remove(_ name: String) throws {
      let url = store.url(for: name)
      guard unlink(url.path) == 0 || errno == ENOENT else {
        throw StoreError.io(path: url.path, operation: "remove", reason: AtomicFile.describe(errno))
      }
    }
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

  /// Checks, once per process, that the key is the one the store was written with: the key-check
  /// file opens or, in a store written before it existed, some file does. An empty store passes.
  ///
  /// - Throws: ``StoreError/wrongKey(path:)``; nothing has been written then.
  public func verifyKey() throws {
    if checked.keyVerified.withLock({ $0 }) { return }
    let names = self.names()
    if names.contains(Self.keyCheckName) {
      do {
        guard try readBytes(Self.keyCheckName) == Self.keyCheckContent else {
          throw StoreError.wrongKey(path: url(for: Self.keyCheckName).path)
        }
      } catch let error as StoreError {
        switch error {
        case .io, .locked: throw error
        default: throw StoreError.wrongKey(path: url(for: Self.keyCheckName).path)
        }
      }
    } else if let first = names.first {
      // A store from before the key check: any file that opens proves the key, the smallest first.
      let bySize = names.map { name in
        let size = (try? FileManager.default.attributesOfItem(atPath: url(for: name).path))?[.size]
        return (name, (size as? Int) ?? Int.max)
      }.sorted { $0.1 < $1.1 }.map(\.0)
      guard bySize.contains(where: { (try? readBytes($0)) != nil }) else {
        throw StoreError.wrongKey(path: url(for: first).path)
      }
    }
    checked.keyVerified.withLock { $0 = true }
  }

  /// The temporary files an interrupted write left behind (`.<name>.enc.tmp-…`), as paths.
  public func leftoverTemporaryFiles() -> [String] { Self.leftoverTemporaryFiles(in: directory) }

  /// The temporary files an interrupted write left behind in `directory`, as paths.
  public static func leftoverTemporaryFiles(in directory: URL) -> [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return files.filter(Self.isLeftover).sorted().map {
      directory.appendingPathComponent($0).path
    }
  }

  private static func isLeftover(_ file: String) -> Bool {
    file.hasPrefix(".") && file.contains(".enc.tmp-")
  }

  /// Runs `body` holding the store's exclusive lock.
  @discardableResult
  public func withLock<T>(wait: Bool = true, _ body: () throws -> T) throws -> T {
    try AtomicFile.createDirectory(directory)
    return try FileLock.withLock(directory.appendingPathComponent(".lock"), wait: wait, body)
  }

  /// The names of the files in the store.
  public func names() -> [String] { Self.names(in: directory) }

  /// The names of the store files in `directory`.
  public static func names(in directory: URL) -> [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return files.filter { $0.hasSuffix(".enc") && !$0.hasPrefix(".") }
      .map { String($0.dropLast(4)) }.sorted()
  }

  /// Checks that `name` is authentic (it would decrypt), without decrypting it.
  public func verify(_ name: String) throws {
    try checkBeforeReplacing(name)
  }

  func readBytes(_ name: String) throws -> [UInt8]? {
    try readFile(name, decrypting: true)
  }

  /// Checks that `name`, if it exists, is an authentic store file, without decrypting it: what
  /// a write checks before replacing a file (a damaged file is never replaced).
  func checkBeforeReplacing(_ name: String) throws {
    _ = try readFile(name, decrypting: false)
  }

  private func readFile(_ name: String, decrypting: Bool) throws -> [UInt8]? {
    let url = url(for: name)
    var data: [UInt8]
    switch FileDescriptor.readFile(url.path) {
    case .bytes(let bytes): data = bytes
    case .missing: return nil
    case .failed(let code):
      throw StoreError.io(path: url.path, operation: "read", reason: AtomicFile.describe(code))
    }
    do {
      if decrypting {
        try EncryptedFileFormat.open(&data, name: name, key: key.bytes)
      } else {
        try EncryptedFileFormat.verify(data, name: name, key: key.bytes)
      }
      return data
    } catch .notAStoreFile {
      throw StoreError.notAStoreFile(path: url.path)
    } catch .unsupportedVersion(let version) {
      throw StoreError.unsupportedVersion(path: url.path, version: version)
    } catch {
      throw StoreError.undecryptable(path: url.path)
    }
  }

  /// Writes `name`; the caller holds the lock. The first write of a process checks the key and
  /// removes what interrupted writes left behind (only writers holding the lock make temporary
  /// files, so any found now is a leftover); the store's first file comes with the key check.
  func writeBytes(
    _ plaintext: [UInt8], name: String, beforeRename: (() throws -> Void)? = nil,
    syncingDirectory: Bool = true
  ) throws {
    try AtomicFile.createDirectory(directory)
    try verifyKey()
    if !checked.leftoversRemoved.withLock({ $0 }) {
      for path in leftoverTemporaryFiles() { unlink(path) }
      checked.leftoversRemoved.withLock { $0 = true }
    }
    if name != Self.keyCheckName,
      !FileManager.default.fileExists(atPath: url(for: Self.keyCheckName).path)
    {
      try seal(Self.keyCheckContent, name: Self.keyCheckName)
    }
    try seal(
      plaintext, name: name, beforeRename: beforeRename, syncingDirectory: syncingDirectory)
  }

  private func seal(
    _ plaintext: [UInt8], name: String, beforeRename: (() throws -> Void)? = nil,
    syncingDirectory: Bool = true
  ) throws {
    let sealed = EncryptedFileFormat.seal(
      plaintext, name: name, key: key.bytes, nonce: randomBytes(ChaChaPoly.nonceLength))
    try AtomicFile.write(
      sealed, to: url(for: name), randomBytes: randomBytes, beforeRename: beforeRename,
      syncingDirectory: syncingDirectory)
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
