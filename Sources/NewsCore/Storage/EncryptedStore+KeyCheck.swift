import Foundation

/// The key check: a small file sealed with the store's key, written with the store's first file,
/// so that a wrong key is told at once rather than as a damaged file.
extension EncryptedStore {
  /// The name of the small file that proves which key the store was written with.
  public static let keyCheckName = "keycheck"
  static let keyCheckContent = Array("news store key check 1".utf8)

  /// Checks, once per process, that the key is the one the store was written with: the key-check
  /// file opens or, when it is missing or damaged, some other file does (a damaged key check
  /// then costs only itself: doctor names it, repair writes it again). An empty store passes.
  ///
  /// - Throws: ``StoreError/wrongKey(path:)`` when no file opens; nothing has been written then.
  public func verifyKey() throws {
    if checked.keyVerified.withLock({ $0 }) { return }
    // The key check first, read directly: the directory (thousands of segment files at a
    // million articles) is listed only when it is missing or does not open.
    var failed: String?
    var present = false
    do {
      let content = try readBytes(Self.keyCheckName)
      present = content != nil
      if let content, content != Self.keyCheckContent { failed = Self.keyCheckName }
    } catch let error as StoreError {
      switch error {
      case .io, .locked: throw error
      default: (present, failed) = (true, Self.keyCheckName)
      }
    }
    if !present || failed != nil {
      try verifyKeyByOtherFiles(failed: failed)
    }
    checked.keyVerified.withLock { $0 = true }
  }

  /// Proves the key with other files when the key check is missing (a store of an earlier
  /// version) or does not open (`failed`): any that opens will do.
  private func verifyKeyByOtherFiles(failed: String?) throws {
    let names = files.names()
    if let first = names.first {
      // Any other file that opens proves the key, the smallest first (a few at most: with a
      // wrong key none does, and trying every file of a large store would cost its size).
      let others = names.filter { $0 != Self.keyCheckName }
        .map { ($0, files.size(of: $0) ?? .max) }.sorted { $0.1 < $1.1 }.prefix(8).map(\.0)
      guard others.contains(where: { (try? readBytes($0)) != nil }) else {
        throw StoreError.wrongKey(path: url(for: failed ?? first).path)
      }
    }
  }

  /// Writes the key check again (after repair removed a damaged one), once the key is proven.
  func rewriteKeyCheck() throws {
    try verifyKey()
    try writeBytes(Self.keyCheckContent, name: Self.keyCheckName)
  }
}
