import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Files of the store held open for reading records of: a refresh of 10,000 sources reads an
/// entry of each from a few hundred bundles, and opens each bundle once rather than once an
/// entry. For files that never change once written (a bundle); one removed since it was opened
/// (another process's commit) reads as missing, as it would by its path. At most `limit` are
/// held, the oldest closed first, and ``closeAll()`` lets every one go.
final class OpenFiles: Sendable {
  private struct Held {
    var descriptors: [String: Int32] = [:]
    var order: [String] = []
  }

  private let held = Mutex(Held())
  private let limit: Int

  init(limit: Int = 64) {
    self.limit = max(1, limit)
  }

  deinit { closeAll() }

  /// `count` bytes at `offset` of the file at `path` (fewer at its end), through the
  /// descriptor held for it, opened now if there is none.
  func readRange(_ path: String, offset: Int, count: Int) -> FileDescriptor.ReadResult {
    held.withLock { held in
      var descriptor: Int32 = -1
      if let open = held.descriptors[path] {
        var info = stat()
        if fstat(open, &info) == 0, info.st_nlink > 0 {
          descriptor = open
        } else {
          // Removed since: read by its path, as if never held.
          close(open)
          held.descriptors[path] = nil
          held.order.removeAll { $0 == path }
        }
      }
      if descriptor < 0 {
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { return errno == ENOENT ? .missing : .failed(errno: errno) }
        if held.order.count >= limit {
          let oldest = held.order.removeFirst()
          if let closing = held.descriptors.removeValue(forKey: oldest) { close(closing) }
        }
        held.descriptors[path] = opened
        held.order.append(path)
        descriptor = opened
      }
      return FileDescriptor.readRange(descriptor, offset: offset, count: count)
    }
  }

  /// Closes every file held.
  func closeAll() {
    held.withLock { held in
      for descriptor in held.descriptors.values { close(descriptor) }
      held = Held()
    }
  }

  /// How many files are held open.
  var count: Int { held.withLock { $0.descriptors.count } }
}
