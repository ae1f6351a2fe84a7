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
    let fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw AtomicFile.failure("open the lock file", url) }
    defer { close(fd) }
    while flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0 {
      if errno == EINTR { continue }
      if errno == EWOULDBLOCK { throw StoreError.locked(path: url.path) }
      throw AtomicFile.failure("lock", url)
    }
    defer { flock(fd, LOCK_UN) }
    return try body()
  }
}
