import Foundation

/// The key check: a small file sealed with the store's key, written with the store's first file,
/// so that a wrong key is told at once rather than as a damaged file.
extension EncryptedStore {
  /// The name of the small file that proves which key the store was written with.
  public static let keyCheckName = StoreLayout.keyCheck
  static let keyCheckContent = Array("news store key check 1".utf8)

  /// Checks, once per process, that the key is the one the store was written with: the key-check
  /// file opens or, in a store written before it existed, some file does. An empty store passes.
  ///
  /// - Throws: ``StoreError/wrongKey(path:)``; nothing has been written then.
  public func verifyKey() throws {
    if checked.keyVerified.withLock({ $0 }) { return }
    let names = files.names()
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
      let bySize = names.map { ($0, files.size(of: $0) ?? .max) }.sorted { $0.1 < $1.1 }.map(\.0)
      guard bySize.contains(where: { (try? readBytes($0)) != nil }) else {
        throw StoreError.wrongKey(path: url(for: first).path)
      }
    }
    checked.keyVerified.withLock { $0 = true }
  }
}
