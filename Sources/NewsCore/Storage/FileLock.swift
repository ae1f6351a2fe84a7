import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive `flock(2)` on a lock file, so that several `news` processes (cron and a person)
/// take turns. The kernel drops the lock when the process dies, even by `kill -9`.
enum FileLock {
  /// Runs `body` holding the lock at `url`.
  ///
  /// - Parameter wait: wait for the lock; otherwise throw ``StoreError/locked(path:)`` at once.
  @discardableResult
  static func withLock<T>(_ url: URL, wait: Bool = true, _ body: () throws -> T) throws -> T {
    let fd = try acquire(url, wait: wait)
    defer { release(fd) }
    return try body()
  }

  /// Runs asynchronous `body` holding the lock at `url`.
  @discardableResult
  static func withLock<T>(_ url: URL, wait: Bool = true, _ body: () async throws -> T)
    async throws -> T
  {
    let fd = try acquire(url, wait: wait)
    defer { release(fd) }
    return try await body()
  }

  private static func acquire(_ url: URL, wait: Bool) throws -> Int32 {
    let fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw AtomicFile.failure("open the lock file", url) }
    while flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0 {
      if errno == EINTR { continue }
      let error: StoreError =
        errno == EWOULDBLOCK ? .locked(path: url.path) : AtomicFile.failure("lock", url)
      close(fd)
      throw error
    }
    return fd
  }

  private static func release(_ fd: Int32) {
    flock(fd, LOCK_UN)
    close(fd)
  }
}
