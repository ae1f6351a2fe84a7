import FeedParsing
import Foundation
import Synchronization

/// A directory of encrypted, authenticated JSON files: the only way the program writes to disk.
///
/// Two halves put together: the directory (``StoreDirectory``: the files' places, the lock, atomic
/// replacement, leftovers) and the file format (``EncryptedFileFormat``: sealing with the key).
/// This type adds what needs both: the key check (``verifyKey()``), JSON coding and transactions.
/// Reads need no lock (writes replace files atomically); read-modify-write updates hold the
/// directory's exclusive lock, so concurrent processes never lose an update. A file that fails to
/// decrypt is reported and never replaced.
public struct EncryptedStore: Sendable {
  /// The directory holding the files.
  public var directory: URL { files.url }
  /// The directory half: places, lock, atomic writes, leftovers.
  let files: StoreDirectory
  let key: StoreKey
  let randomBytes: @Sendable (Int) -> [UInt8]
  /// What this process has already checked about the directory (shared by copies of the store).
  let checked = CheckedState()
  /// Told once a file, with what is left out, when a side file does not open
  /// (``readSide(_:name:leftOut:)``); the command line says it as a warning.
  public var onSideDamage: (@Sendable (StoreDamage) -> Void)?

  final class CheckedState: Sendable {
    let keyVerified = Mutex(false)
    let leftoversRemoved = Mutex(false)
    /// Whether a save of this process went through the whole directory for article files of
    /// earlier versions and segment leftovers (``ArticleSegments``): once is enough, as only an
    /// earlier version writes the ones and a crash, which ends the process, leaves the others.
    let segmentsTidied = Mutex(false)
    /// Whether the directory was found without article files of earlier versions (which only
    /// an earlier version writes): it is not listed for them again.
    let legacyAbsent = Mutex(false)
    /// The side files found damaged (told once each).
    let damagedSides = Mutex(Set<String>())
    /// Values decoded from files, by name, each with the file it came from
    /// (``EncryptedStore/readHeld(_:decode:)``).
    let held = Mutex([String: (file: StoreDirectory.FileIdentity, value: any Sendable)]())
  }

  /// Creates a store in `directory` (created with mode 0700 on first write).
  ///
  /// - Parameter randomBytes: the nonce source; tests may make it deterministic.
  public init(
    directory: URL, key: StoreKey,
    randomBytes: @escaping @Sendable (Int) -> [UInt8]
  ) {
    self.files = StoreDirectory(url: directory)
    self.key = key
    self.randomBytes = randomBytes
  }

  /// The file holding `name`.
  public func url(for name: String) -> URL { files.fileURL(name) }

  /// Whether the store holds `name`.
  func exists(_ name: String) -> Bool { files.exists(name) }

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

  /// Reads `name` as ``read(_:name:)`` does, except that a damaged file costs only what it
  /// holds: `nil`, and ``onSideDamage`` told (once) what is `leftOut` and how to mend it. For the
  /// files beside the articles (full texts, enclosures, first-seen times, downloads, bookmarks),
  /// which no command needs whole to go on. Writing such a file still fails: a damaged file is
  /// never replaced.
  func readSide<T: Decodable>(
    _ type: T.Type, name: String, leftOut: String, advice: Advice? = nil
  ) throws -> T? {
    do {
      return try read(type, name: name)
    } catch let error as StoreError where error.isDamage {
      sayDamaged(at: url(for: name).path, leftOut: leftOut, advice: advice)
      return nil
    }
  }

  /// Tells ``onSideDamage``, once a file, that the file at `path` does not open and what is
  /// left out: what reads around a damaged file (a side file, a segment) says.
  func sayDamaged(at path: String, leftOut: String, advice: Advice?) {
    sayDamaged(StoreDamage(path: path, leftOut: leftOut, advice: advice))
  }

  /// Tells ``onSideDamage`` of `damage`, once a file.
  func sayDamaged(_ damage: StoreDamage) {
    if checked.damagedSides.withLock({ $0.insert(damage.path).inserted }) {
      onSideDamage?(damage)
    }
  }

  /// Encrypts `value` and atomically replaces `name` with it, under the store's lock.
  ///
  /// Nothing is written when the key is not the store's (``StoreError/wrongKey(path:)``) or when
  /// the file in place does not open: a damaged file is never replaced.
  public func write<T: Encodable>(_ value: T, name: String) throws {
    let plaintext = try Self.encoded(value)
    try withLock {
      try checkBeforeReplacing(name)
      try writeBytes(plaintext, name: name)
    }
  }

  /// Writes `value` as ``write(_:name:)`` does, unless what `name` holds is the `same` (equal,
  /// unless told otherwise): a command run again (the same list shown twice) then writes
  /// nothing. Whether it wrote. (Values are compared, not bytes: the encoder's key order is not
  /// fixed. What does not decode is replaced, as ``write(_:name:)`` would.) What `same` sets
  /// aside must change the encoding's length by at most ``sameLengthSlack`` bytes: a file
  /// further from it in length is replaced without being read.
  @discardableResult
  func writeIfChanged<T: Codable & Equatable>(
    _ value: T, name: String, same: (T, T) -> Bool = { $0 == $1 },
    sameBytes: (_ held: [UInt8], _ new: [UInt8]) -> Bool = { _, _ in false }
  ) throws -> Bool {
    try withLock {
      try verifyKey()
      let bytes = try Self.encoded(value)
      // Of a very different length, it is not the same: not decoded (a list of 200,000 ids
      // took a tenth of the next search to read back only to be replaced). Bytes that tell it
      // is the same need no decoding either.
      if let old = try readFile(name, decrypting: true),
        abs(old.count - bytes.count) <= Self.sameLengthSlack,
        sameBytes(old, bytes)
          || (try? Self.decoder.decode(T.self, from: Data(old))).map({ same($0, value) }) == true
      {
        return false
      }
      try writeBytes(bytes, name: name)
      return true
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
  /// again inside): writes keep their checks (a damaged file is never replaced). Without
  /// `wait`, a lock another process holds is ``StoreError/locked(path:)`` at once.
  func transaction<T>(wait: Bool = true, _ body: (Transaction) throws -> T) throws -> T {
    try withLock(wait: wait) { try body(Transaction(store: self)) }
  }

  /// What ``transaction(_:)`` hands its body.
  struct Transaction {
    let store: EncryptedStore

    func read<T: Decodable>(_ type: T.Type, name: String) throws -> T? {
      try store.read(type, name: name)
    }

    func write<T: Encodable>(_ value: T, name: String) throws {
      let plaintext = try EncryptedStore.encoded(value)
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
    /// numbers are never reused, so there is nothing to check first). Its data is on disk when
    /// this returns; its name is once ``syncDirectory()`` has run (a commit runs it once for
    /// all the files it made, before the manifest that lists them).
    func create(bytes plaintext: [UInt8], name: String) throws {
      try store.writeBytes(plaintext, name: name, syncingDirectory: false)
    }

    /// Makes the names of the files made so far durable: one sync of the directory.
    func syncDirectory() { store.files.sync() }

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
      store.files.sync()
    }

    /// Deletes `name` if it exists.
    func remove(_ name: String) throws { try store.files.remove(name) }
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
      try writeBytes(try Self.encoded(value), name: name)
      return value
    }
  }

  /// The temporary files an interrupted write left behind (`.<name>.enc.tmp-…`), as paths.
  public func leftoverTemporaryFiles() -> [String] { files.leftoverTemporaryFiles() }

  /// Runs `body` holding the store's exclusive lock.
  @discardableResult
  public func withLock<T>(wait: Bool = true, _ body: () throws -> T) throws -> T {
    try files.withLock(wait: wait, body)
  }

  /// The names of the files in the store.
  public func names() -> [String] { files.names() }

  /// Whether some file's name starts with `prefix`, without listing every name.
  func containsName(withPrefix prefix: String) -> Bool { files.containsName(withPrefix: prefix) }

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
    guard var data = try files.read(name) else { return nil }
    let url = url(for: name)
    do {
      if decrypting {
        try EncryptedFileFormat.open(&data, name: name, key: key.bytes)
      } else if SealedBundle.isBundle(data) {
        try SealedBundle.verify(data, name: name, key: key.bytes)
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

  /// Writes `name`; the caller holds the lock (``prepareToWrite(_:)`` first).
  func writeBytes(
    _ plaintext: [UInt8], name: String, beforeRename: (() throws -> Void)? = nil,
    syncingDirectory: Bool = true
  ) throws {
    try prepareToWrite(name)
    try seal(
      plaintext, name: name, beforeRename: beforeRename, syncingDirectory: syncingDirectory)
  }

  /// What comes before a write of `name`; the caller holds the lock. The first write of a
  /// process checks the key and removes what interrupted writes left behind; the store's first
  /// file comes with the key check.
  func prepareToWrite(_ name: String) throws {
    try AtomicFile.createDirectory(directory)
    try verifyKey()
    if !checked.leftoversRemoved.withLock({ $0 }) {
      files.removeLeftovers()
      checked.leftoversRemoved.withLock { $0 = true }
    }
    if name != Self.keyCheckName, !files.exists(Self.keyCheckName) {
      try seal(Self.keyCheckContent, name: Self.keyCheckName)
    }
  }

  private func seal(
    _ plaintext: [UInt8], name: String, beforeRename: (() throws -> Void)? = nil,
    syncingDirectory: Bool = true
  ) throws {
    let sealed = EncryptedFileFormat.seal(
      plaintext, name: name, key: key.bytes, nonce: randomBytes(ChaChaPoly.nonceLength))
    try files.replace(
      name, with: sealed, randomBytes: randomBytes, beforeRename: beforeRename,
      syncingDirectory: syncingDirectory)
  }

  /// How far in length two encodings ``writeIfChanged(_:name:same:)`` may call the same can
  /// be: a time written as seconds (`fetchedAt`) varies by a few digits.
  static let sameLengthSlack = 64

  /// `value` as the JSON the store writes: its own bytes when it makes them
  /// (``CompactJSONEncodable``), else `JSONEncoder`'s.
  static func encoded<T: Encodable>(_ value: T) throws -> [UInt8] {
    if let compact = (value as? any CompactJSONEncodable)?.compactJSON { return compact }
    return Array(try encoder.encode(value))
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
