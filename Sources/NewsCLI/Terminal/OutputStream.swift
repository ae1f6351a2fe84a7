import Foundation
import NewsCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file descriptor the program writes text to, with POSIX `write(2)`: a failure never crashes
/// the program (Foundation's `FileHandle.write` traps on one).
///
/// The first error is remembered and later writes are dropped: the command then ends with one
/// line on stderr and exit 74 (``Console/writeFailure``). A closed pipe (EPIPE) ends the program
/// quietly, as `SIGPIPE` would have.
final class OutputStream: Sendable {
  private let descriptor: Int32
  private let failure = Mutex<String?>(nil)

  init(descriptor: Int32) { self.descriptor = descriptor }

  /// Why writing failed, if it did.
  var failed: String? { failure.withLock { $0 } }

  func write(_ text: String) {
    guard failed == nil else { return }
    var text = text
    let failed = text.withUTF8 { FileDescriptor.writeAll(descriptor, UnsafeRawBufferPointer($0)) }
    guard let failed else { return }
    if failed == EPIPE { exit(128 + SIGPIPE) }
    let reason = String(cString: strerror(failed)).lowercased()
    failure.withLock { $0 = $0 ?? reason }
  }
}
