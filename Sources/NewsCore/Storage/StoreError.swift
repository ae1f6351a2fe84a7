/// The encrypted store could not be used.
public enum StoreError: NewsError, Equatable {
  /// A file failed authentication: wrong key, corruption or tampering. It is left untouched.
  case undecryptable(path: String)
  /// A file is too short or does not start with the store's magic bytes.
  case notAStoreFile(path: String)
  /// A file was written by a newer version of the program.
  case unsupportedVersion(path: String, version: UInt8)
  /// A file decrypted but does not hold what was expected.
  case unreadableContent(path: String, detail: String)
  /// The key file can be read by other users.
  case keyFileTooOpen(path: String, mode: String)
  /// The key (file or `NEWS_STORE_KEY`) is not 32 bytes of base64.
  case invalidKey(source: String)
  /// A file system operation failed.
  case io(path: String, operation: String, reason: String)
  /// A file the store's own records list is missing (a segment its manifest names).
  case listedButMissing(path: String, listedBy: String)
  /// Another process holds the store's lock and waiting was not asked for.
  case locked(path: String)
  /// The key does not open the store: nothing was written under it.
  case wrongKey(path: String)
  /// No key (neither `NEWS_STORE_KEY` nor the key file) for a store that was written with one:
  /// none is made, and nothing was written.
  case missingKey(path: String)

  public var message: String {
    switch self {
    case .undecryptable(let path):
      return
        "cannot decrypt \(path): the key is not the one it was written with (NEWS_STORE_KEY or "
        + "the key file changed?) or the file was corrupted or tampered with; it was left untouched"
    case .notAStoreFile(let path):
      return "\(path) is not a news store file (truncated or replaced?); it was left untouched"
    case .unsupportedVersion(let path, let version):
      return "\(path) uses store format \(version), newer than this news understands; upgrade news"
    case .unreadableContent(let path, let detail):
      return "\(path) decrypted but its content is not valid (\(detail)); it was left untouched"
    case .keyFileTooOpen(let path, let mode):
      return
        "the store key \(path) is readable by other users (mode \(mode)); run 'chmod 600 \(path)'"
    case .invalidKey(let source):
      return "\(source) does not hold a store key: expected 32 bytes in base64 (44 characters)"
    case .io(let path, let operation, let reason):
      return "cannot \(operation) \(path): \(reason)"
    case .listedButMissing(let path, let listedBy):
      return "cannot read \(path): it is missing, though \(listedBy) lists it"
    case .locked(let path):
      return "another news process holds the lock \(path); try again later or pass --wait"
    case .wrongKey(let path):
      return
        "the store key does not open \(path): NEWS_STORE_KEY or the key file is not the key this "
        + "store was written with; nothing was written"
    case .missingKey(let path):
      return
        "no store key (NEWS_STORE_KEY is not set and the key file is missing) for the store in "
        + "\(path), written with one: set NEWS_STORE_KEY or put the key file back; a new key "
        + "would not open it, so none was made and nothing was written"
    }
  }

  /// The file it is about, when it is about one.
  var path: String? {
    switch self {
    case .undecryptable(let path), .notAStoreFile(let path), .unreadableContent(let path, _),
      .keyFileTooOpen(let path, _), .io(let path, _, _), .locked(let path), .wrongKey(let path),
      .missingKey(let path), .unsupportedVersion(let path, _), .listedButMissing(let path, _):
      return path
    case .invalidKey:
      return nil
    }
  }

  /// Whether the file is damaged (does not decrypt, is no store file, or holds what it should
  /// not): with the key checked, what only that file's own contents cost.
  var isDamage: Bool {
    switch self {
    case .undecryptable, .notAStoreFile, .unreadableContent: return true
    default: return false
    }
  }

  /// Whether the file was written by a newer version (not damage).
  var isUnsupportedVersion: Bool {
    if case .unsupportedVersion = self { return true }
    return false
  }

  public var advice: Advice? {
    switch self {
    case .wrongKey: .examineStore
    case .listedButMissing: .repairStore()
    default: nil
    }
  }

  public var exitCode: ExitCode {
    switch self {
    case .keyFileTooOpen, .invalidKey: return .configuration
    case .locked: return .temporaryFailure
    default: return .ioError
    }
  }
}
