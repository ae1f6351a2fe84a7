import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a file so that a reader, or a crash at any moment, sees either the old content or the
/// new, never a mix: temporary file in the same directory, fsync, rename, fsync of the directory.
enum AtomicFile {
  /// Replaces the file at `url` with `bytes` (mode 0600).
  ///
  /// - Parameters:
  ///   - randomBytes: makes the temporary file's name unique.
  ///   - beforeRename: called after the temporary file is complete and synced; tests throw from
  ///     it to simulate a crash at the worst moment.
  ///   - syncingDirectory: `false` when the caller syncs the directory once after several files.
  static func write(
    _ bytes: [UInt8], to url: URL, randomBytes: @Sendable (Int) -> [UInt8],
    beforeRename: (() throws -> Void)? = nil, syncingDirectory: Bool = true
  ) throws {
    let directory = url.deletingLastPathComponent()
    let suffix = randomBytes(4).map { String($0, radix: 16) }.joined()
    let temporary = directory.appendingPathComponent(
      ".\(url.lastPathComponent).tmp-\(getpid())-\(suffix)", isDirectory: false)
    let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw failure("create", temporary) }
    let failed = bytes.withUnsafeBytes { FileDescriptor.writeAll(fd, $0) }
    if let failed { errno = failed }
    guard failed == nil, fsync(fd) == 0 else {
      let error = failure("write", temporary)
      close(fd)
      unlink(temporary.path)
      throw error
    }
    close(fd)
    try beforeRename?()
    guard rename(temporary.path, url.path) == 0 else {
      let error = failure("replace", url)
      unlink(temporary.path)
      throw error
    }
    if syncingDirectory { syncDirectory(directory) }
  }

  /// Makes a rename durable: the directory entry itself must reach the disk.
  static func syncDirectory(_ directory: URL) {
    let fd = open(directory.path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    fsync(fd)
    close(fd)
  }

  /// Creates `directory` (and its parents) with mode 0700 if it does not exist.
  static func createDirectory(_ directory: URL) throws {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else {
        throw StoreError.io(
          path: directory.path, operation: "use", reason: "it exists and is not a directory")
      }
      return
    }
    do {
      try FileManager.default.createDirectory(
        at: directory, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    } catch {
      throw StoreError.io(path: directory.path, operation: "create", reason: describe(errno))
    }
  }

  static func failure(_ operation: String, _ url: URL) -> StoreError {
    .io(path: url.path, operation: operation, reason: describe(errno))
  }

  static func describe(_ code: Int32) -> String {
    String(cString: strerror(code)).lowercased()
  }
}
