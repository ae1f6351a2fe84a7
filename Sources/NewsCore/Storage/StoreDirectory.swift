import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The directory half of a store: where each file is (`<name>.enc`), the lock, atomic replacement
/// and removal, and the temporary files an interrupted write left behind. It knows nothing of
/// keys or of what the bytes mean: ``EncryptedFileFormat`` seals them, ``EncryptedStore`` puts the
/// two together. Needs no key, so reports and repairs use it on a store they cannot open.
struct StoreDirectory: Sendable {
  /// The directory.
  let url: URL

  /// The suffix of every store file.
  static let fileSuffix = ".enc"

  /// The file holding `name`.
  func fileURL(_ name: String) -> URL {
    // Said to be a file: without it, Foundation asks the file system whether it is a
    // directory (a `stat` for every read of the store).
    url.appendingPathComponent(name + Self.fileSuffix, isDirectory: false)
  }

  /// Whether the directory holds `name` (nothing is read).
  func exists(_ name: String) -> Bool {
    access(fileURL(name).path, F_OK) == 0
  }

  /// The names of the store files, sorted.
  func names() -> [String] {
    files().filter { $0.hasSuffix(Self.fileSuffix) && !$0.hasPrefix(".") }
      .map { String($0.dropLast(Self.fileSuffix.count)) }.sorted()
  }

  /// Which file `name` is now: its device, inode, size and change time (`nil` when there is
  /// none). An atomic replacement makes a new inode, so a file replaced since has another.
  func identity(of name: String) -> FileIdentity? {
    var info = stat()
    guard stat(fileURL(name).path, &info) == 0 else { return nil }
    #if canImport(Glibc)
      let changed = info.st_ctim
    #else
      let changed = info.st_ctimespec
    #endif
    return FileIdentity(
      device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
      changed: Int64(changed.tv_sec) * 1_000_000_000 + Int64(changed.tv_nsec))
  }

  /// What ``identity(of:)`` tells of a file.
  struct FileIdentity: Sendable, Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var changed: Int64
  }

  /// The size of `name` in bytes, if it can be told.
  func size(of name: String) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: fileURL(name).path))?[.size] as? Int
  }

  /// The temporary files an interrupted write left behind (`.<name>.enc.tmp-…`), as paths.
  func leftoverTemporaryFiles() -> [String] {
    entries { $0.first == UInt8(ascii: ".") }
      .filter { $0.contains(Self.fileSuffix + ".tmp-") }.sorted().map {
        url.appendingPathComponent($0, isDirectory: false).path
      }
  }

  /// Whether some store file's name starts with `prefix` (without making a string of each of
  /// the thousands of others: ``entries(where:)``).
  func containsName(withPrefix prefix: String) -> Bool {
    let wanted = Array(prefix.utf8)
    return !entries { $0.starts(with: wanted) }.isEmpty
  }

  /// The names of the directory's entries whose raw bytes `matches` accepts, read with
  /// `readdir`: at a million articles the directory holds thousands of segment files, and only
  /// the few asked for become strings.
  func entries(where matches: (UnsafeRawBufferPointer) -> Bool) -> [String] {
    guard let directory = opendir(url.path) else { return [] }
    defer { closedir(directory) }
    var found: [String] = []
    while let entry = readdir(directory) {
      let name = Self.name(of: entry)
      if matches(name) { found.append(String(decoding: name, as: UTF8.self)) }
    }
    return found
  }

  /// The name of a directory entry as bytes, read through a pointer to the field and only up to
  /// its NUL. glibc's records are only as long as their name (`d_reclen`), so the last one of a
  /// `getdents` buffer may end where the mapping ends: copying the whole declared `d_name` array
  /// (256 bytes) would read past it.
  static func name(of entry: UnsafePointer<dirent>) -> UnsafeRawBufferPointer {
    let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
    let start = UnsafeRawPointer(entry) + offset
    let length = strlen(start.assumingMemoryBound(to: CChar.self))
    return UnsafeRawBufferPointer(start: start, count: length)
  }

  /// Runs `body` holding the directory's exclusive lock (`.lock`), creating the directory (mode
  /// 0700) first if it does not exist.
  @discardableResult
  func withLock<T>(wait: Bool = true, _ body: () throws -> T) throws -> T {
    try AtomicFile.createDirectory(url)
    return try FileLock.withLock(url.appendingPathComponent(".lock"), wait: wait, body)
  }

  /// The bytes of `name` as they are on disk; `nil` when it does not exist.
  func read(_ name: String) throws -> [UInt8]? {
    let path = fileURL(name).path
    switch FileDescriptor.readFile(path) {
    case .bytes(let bytes): return bytes
    case .missing: return nil
    case .failed(let code):
      throw StoreError.io(path: path, operation: "read", reason: AtomicFile.describe(code))
    }
  }

  /// Atomically replaces `name` with `bytes` (``AtomicFile``); the caller holds the lock (which
  /// made the directory).
  func replace(
    _ name: String, with bytes: [UInt8], randomBytes: @Sendable (Int) -> [UInt8],
    beforeRename: (() throws -> Void)? = nil, syncingDirectory: Bool = true
  ) throws {
    try AtomicFile.write(
      bytes, to: fileURL(name), randomBytes: randomBytes, beforeRename: beforeRename,
      syncingDirectory: syncingDirectory)
  }

  /// Deletes `name` if it exists; the caller holds the lock.
  func remove(_ name: String) throws {
    let path = fileURL(name).path
    guard unlink(path) == 0 || errno == ENOENT else {
      throw StoreError.io(path: path, operation: "remove", reason: AtomicFile.describe(errno))
    }
  }

  /// Makes the renames and removals so far durable (one sync for several files).
  func sync() { AtomicFile.syncDirectory(url) }

  /// Deletes the leftovers of interrupted writes; the caller holds the lock (only writers holding
  /// it make temporary files, so any found then is a leftover).
  func removeLeftovers() {
    for path in leftoverTemporaryFiles() { unlink(path) }
  }

  private func files() -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
  }
}
