import Foundation
import NewsCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A real server program run on 127.0.0.1 for a test (Coldsweat, PHP's built-in server under
/// Tiny Tiny RSS): started on port 0, so that the kernel picks a free port as the server binds
/// it (no other test's server can take it in between); the port read from the line the server
/// announces on standard error; up once it accepts a connection; killed with the test.
public final class ServerProcess: Sendable {
  /// The port the server listens on, as it announced it.
  public let port: UInt16
  private let process: Spawned

  /// Starts `program` and waits (bounded: a broken install fails, never hangs) until it
  /// announced `<announcement><port>` on standard error and accepts connections there.
  public init(
    program: URL, arguments: [String], environment: [String: String], directory: URL? = nil,
    announcement: String
  ) throws {
    process = try Spawned(
      program, arguments: arguments, environment: environment, directory: directory,
      errors: .pipe)
    // A descriptor of the reading thread's own, closed when it is done: the process's own end
    // is closed with it, maybe while the thread still reads.
    let errors = FileHandle(
      fileDescriptor: dup(process.errors.fileDescriptor), closeOnDealloc: true)
    guard let announced = Self.announcedPort(errors, after: announcement) else {
      Self.stop(process)
      throw ServerProcessError.didNotStart
    }
    port = announced
    for _ in 0..<2_000 {
      if accepts() { return }
      guard process.isRunning else { break }
      usleep(10_000)
    }
    Self.stop(process)
    throw ServerProcessError.didNotStart
  }

  deinit { Self.stop(process) }

  /// SIGKILL to its group and waitpid: a development server may outlive SIGTERM.
  private static func stop(_ process: Spawned) {
    process.kill(SIGKILL)
    _ = process.waitBlocking()
  }

  /// The port after `announcement` on the server's standard error, waited for 60 s at most;
  /// what it writes afterwards (a line a request) is read and dropped until it ends, so that it
  /// never blocks on a full pipe.
  private static func announcedPort(_ errors: FileHandle, after announcement: String) -> UInt16? {
    let found = DispatchSemaphore(value: 0)
    let port = Mutex<UInt16?>(nil)
    Thread {
      var text = ""
      while case let chunk = errors.availableData, !chunk.isEmpty {
        guard port.withLock({ $0 }) == nil else { continue }
        text += String(decoding: chunk, as: UTF8.self)
        if let range = text.range(of: announcement) {
          let digits = text[range.upperBound...].prefix { $0.isNumber }
          if let number = UInt16(digits), digits.endIndex < text.endIndex {
            port.withLock { $0 = number }
            found.signal()
          }
        }
      }
      found.signal()
    }.start()
    _ = found.wait(timeout: .now() + 60)
    return port.withLock { $0 }
  }

  private func accepts() -> Bool {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }
}

/// Why a server program did not come up.
public enum ServerProcessError: Error {
  case didNotStart
}
