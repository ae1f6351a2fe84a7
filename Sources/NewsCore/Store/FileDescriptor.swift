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
