import Foundation

extension EncryptedStore {
  /// `name` decoded by `decode`, or the value held for it while the file is still the one it was
  /// read from or written as (``hold(_:name:)``): a writer committing many times reads back
  /// what it wrote last without decrypting and decoding it again. `nil` when there is no file.
  ///
  /// Which file it is, is told before it is read (``StoreDirectory/identity(of:)``: an atomic
  /// replacement makes a new inode, a write in place a new change time), so a file replaced in
  /// between is read again next time.
  func readHeld<T: Sendable>(_ name: String, decode: ([UInt8]) throws -> T) throws -> T? {
    let file = files.identity(of: name)
    if let file, let held = checked.held.withLock({ $0[name] }), held.file == file,
      let value = held.value as? T
    {
      return value
    }
    guard let bytes = try readBytes(name) else { return nil }
    let value = try decode(bytes)
    if let file { checked.held.withLock { $0[name] = (file, value) } }
    return value
  }

  /// Holds `value` as what `name` holds now: the caller wrote it under the lock, which no other
  /// writer holds meanwhile.
  func hold<T: Sendable>(_ value: T, name: String) {
    guard let file = files.identity(of: name) else { return }
    checked.held.withLock { $0[name] = (file, value) }
  }
}
