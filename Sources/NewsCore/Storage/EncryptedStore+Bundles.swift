import Foundation

extension EncryptedStore {
  /// The record at `place` of the bundle `name` (``SealedBundle``), read and decrypted alone;
  /// `nil` when the file does not exist (a writer removed it since its place was read).
  func readRecord(
    of name: String, at place: SealedBundle.Place, through openFiles: OpenFiles? = nil
  ) throws -> [UInt8]? {
    let path = url(for: name).path
    let read =
      openFiles?.readRange(path, offset: place.offset, count: place.length)
      ?? FileDescriptor.readRange(path, offset: place.offset, count: place.length)
    switch read {
    case .missing: return nil
    case .failed(let code):
      throw StoreError.io(path: path, operation: "read", reason: AtomicFile.describe(code))
    case .bytes(var sealed):
      do {
        try SealedBundle.open(&sealed, at: place, name: name, key: key.bytes)
        return sealed
      } catch .unsupportedVersion(let version) {
        throw StoreError.unsupportedVersion(path: path, version: version)
      } catch {
        throw StoreError.undecryptable(path: path)
      }
    }
  }

  /// The first record of the bundle `name` of `count` records, read and decrypted alone
  /// without knowing its length (two reads); `nil` when the file does not exist.
  func readFirstRecord(of name: String, count: Int) throws -> [UInt8]? {
    let path = url(for: name).path
    switch FileDescriptor.readRange(path, offset: 0, count: SealedBundle.firstPlaceLength) {
    case .missing: return nil
    case .failed(let code):
      throw StoreError.io(path: path, operation: "read", reason: AtomicFile.describe(code))
    case .bytes(let header):
      guard let place = SealedBundle.firstPlace(inHeader: header, count: count) else {
        throw StoreError.undecryptable(path: path)
      }
      return try readRecord(of: name, at: place)
    }
  }

  /// Every record of the bundle `name`, decrypted, with its place; `nil` when it does not exist.
  func readBundle(_ name: String) throws -> [(place: SealedBundle.Place, record: [UInt8])]? {
    guard let bytes = try files.read(name) else { return nil }
    let path = url(for: name).path
    do {
      return try SealedBundle.openAll(bytes, name: name, key: key.bytes)
    } catch .notAStoreFile {
      throw StoreError.notAStoreFile(path: path)
    } catch .unsupportedVersion(let version) {
      throw StoreError.unsupportedVersion(path: path, version: version)
    } catch {
      throw StoreError.undecryptable(path: path)
    }
  }
}

extension EncryptedStore.Transaction {
  /// Writes `count` records, each made by `record` when its turn comes (told where the records
  /// before it are), as the new bundle
  /// `name` (numbers are never reused: nothing to check first), each sealed with a nonce of its
  /// own, and answers where each is. Its data is on disk when this returns; its name once
  /// ``syncDirectory()`` has run.
  func createBundle(
    count: Int, name: String,
    record: (_ index: Int, _ placesBefore: [SealedBundle.Place]) throws -> [UInt8]
  ) throws -> [SealedBundle.Place] {
    try store.prepareToWrite(name)
    let (bytes, places) = try SealedBundle.seal(
      count: count, name: name, key: store.key.bytes,
      nonce: { store.randomBytes(ChaChaPoly.nonceLength) }, record: record)
    try store.files.replace(
      name, with: bytes, randomBytes: store.randomBytes, syncingDirectory: false)
    return places
  }
}
