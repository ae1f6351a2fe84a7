import FeedParsing
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The store's 32-byte key: given as base64 (`NEWS_STORE_KEY`, for cron and CI) or read from a
/// key file, created on first use with mode 0600 in a 0700 directory (where, the configuration
/// says: ``StoreKey/load(configuration:randomBytes:)``).
public struct StoreKey: Sendable {
  /// The key itself.
  let bytes: [UInt8]
  /// Where it came from, for `news doctor`: `NEWS_STORE_KEY` or the key file's path.
  public let source: String

  /// A key of these bytes (32), named by `source`; tests make theirs so.
  package init(bytes: [UInt8], source: String) {
    self.bytes = bytes
    self.source = source
  }

  /// Loads the key file `url` (`nil` when there is none), or creates it from `randomBytes`
  /// with mode 0600 in its directory, made 0700 (two processes creating it at once agree on one).
  static func loadFile(_ url: URL, randomBytes: @Sendable (Int) -> [UInt8]) throws -> StoreKey {
    if let key = try read(url) { return key }
    let directory = url.deletingLastPathComponent()
    try AtomicFile.createDirectory(directory)
    let temporary = directory.appendingPathComponent(".key.tmp-\(getpid())")
    let text = Data(randomBytes(32)).base64EncodedString() + "\n"
    try AtomicFile.write(Array(text.utf8), to: temporary, randomBytes: randomBytes)
    // link(2) fails if the key appeared meanwhile: then the other process's key is the key.
    let linked = link(temporary.path, url.path) == 0
    unlink(temporary.path)
    if linked { AtomicFile.syncDirectory(directory) }
    guard let key = try read(url) else {
      throw StoreError.io(path: url.path, operation: "create", reason: "it vanished")
    }
    return key
  }

  /// The key given as base64 (`NEWS_STORE_KEY`), named by `source`.
  static func encoded(_ text: String, source: String) throws -> StoreKey {
    StoreKey(bytes: try decode(text, source: source), source: source)
  }

  static func read(_ url: URL) throws -> StoreKey? {
    var info = stat()
    guard stat(url.path, &info) == 0 else {
      if errno == ENOENT { return nil }
      throw AtomicFile.failure("read", url)
    }
    if info.st_mode & 0o077 != 0 {
      throw StoreError.keyFileTooOpen(
        path: url.path, mode: String(info.st_mode & 0o777, radix: 8))
    }
    guard let data = FileManager.default.contents(atPath: url.path) else {
      throw AtomicFile.failure("read", url)
    }
    let text = String(decoding: data, as: UTF8.self)
    return StoreKey(bytes: try decode(text, source: url.path), source: url.path)
  }

  static func decode(_ text: String, source: String) throws(StoreError) -> [UInt8] {
    let trimmed = text.droppingByteOrderMark.trimmingCharacters(in: .whitespacesAndNewlines)
    guard let data = Data(base64Encoded: trimmed),
      data.count == 32
    else { throw .invalidKey(source: source) }
    return Array(data)
  }
}
