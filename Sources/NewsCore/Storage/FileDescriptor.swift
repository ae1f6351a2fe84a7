#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole buffers written to a file descriptor with `write(2)`: short writes continue and EINTR is
/// retried, so callers see only success or the error that stopped it.
public enum FileDescriptor {
  /// Writes all of `bytes` to `descriptor`.
  ///
  /// - Returns: `nil` when everything was written, else the `errno` of the failure.
  public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    var offset = 0
    while offset < bytes.count {
      let count = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if count >= 0 {
        offset += count
      } else if errno != EINTR {
        return errno
      }
    }
    return nil
  }

  /// What ``readFile(_:)`` found.
  public enum ReadResult: Equatable {
    case bytes([UInt8])
    case missing
    case failed(errno: Int32)
  }

  /// The whole file at `path`, read with `open`/`fstat`/`read` (no Foundation buffering: the
  /// store reads hundreds of small files per command).
  public static func readFile(_ path: String) -> ReadResult {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return errno == ENOENT ? .missing : .failed(errno: errno) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { return .failed(errno: errno) }
    var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
    var offset = 0
    while true {
      if offset == bytes.count { bytes.append(contentsOf: repeatElement(0, count: 4096)) }
      let count = bytes.withUnsafeMutableBytes { buffer in
        read(fd, buffer.baseAddress! + offset, buffer.count - offset)
      }
      if count > 0 {
        offset += count
      } else if count == 0 {
        break
      } else if errno != EINTR {
        return .failed(errno: errno)
      }
    }
    bytes.removeSubrange(offset...)
    return .bytes(bytes)
  }

  /// `count` bytes of the file at `path` from `offset`, read with `pread` (one record of a
  /// file of several); fewer when the file ends first.
  public static func readRange(_ path: String, offset: Int, count: Int) -> ReadResult {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return errno == ENOENT ? .missing : .failed(errno: errno) }
    defer { close(fd) }
    return readRange(fd, offset: offset, count: count)
  }

  /// `count` bytes at `offset` of the open file `fd` (fewer at its end).
  static func readRange(_ fd: Int32, offset: Int, count: Int) -> ReadResult {
    var bytes = [UInt8](repeating: 0, count: max(0, count))
    var done = 0
    while done < bytes.count {
      let read = bytes.withUnsafeMutableBytes { buffer in
        pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
      }
      if read > 0 {
        done += read
      } else if read == 0 {
        break
      } else if errno != EINTR {
        return .failed(errno: errno)
      }
    }
    bytes.removeSubrange(done...)
    return .bytes(bytes)
  }

  #if canImport(Glibc)
    private static func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
      Glibc.write(fd, buffer, count)
    }
  #else
    private static func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
      Darwin.write(fd, buffer, count)
    }
  #endif
}
