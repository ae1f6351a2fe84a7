import Foundation
import NewsCore

extension StoreKey {
  /// A key for tests: fixed bytes, never a real one.
  public static func testing(_ byte: UInt8 = 3) -> StoreKey {
    StoreKey(bytes: [UInt8](repeating: byte, count: 32), source: "test")
  }
}

extension EncryptedStore {
  /// An encrypted store in `directory` under the test key of `byte` (``StoreKey/testing(_:)``),
  /// with real random nonces: the one set-up the store's tests share.
  public static func testing(in directory: URL, key byte: UInt8 = 3) -> EncryptedStore {
    EncryptedStore(directory: directory, key: .testing(byte), randomBytes: SecureRandom.bytes)
  }
}

extension ArticleStore {
  /// An article store in `directory` under a test key, keeping what `retention` says, its clock
  /// `now`: the one set-up the store's tests share.
  public static func testing(
    in directory: URL, retention: RetentionPolicy = RetentionPolicy(),
    now: @escaping @Sendable () -> Date
  ) -> ArticleStore {
    ArticleStore(
      store: .testing(in: directory),
      retention: retention, now: now)
  }
}
