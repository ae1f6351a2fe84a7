import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A port of 127.0.0.1 that refuses connections: bound but never listening, and held for as long
/// as this value lives, so that no other test's server can be given the same port meanwhile.
public final class ClosedPort: Sendable {
  private let descriptor: Int32
  /// `http://127.0.0.1:<port>`.
  public let baseURL: URL

  /// Binds a free port without listening on it.
  public init() throws {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard fd >= 0, bound else { throw LoopbackServer.ServerError.socket(errno) }
    descriptor = fd
    baseURL = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")!
  }

  deinit { close(descriptor) }
}
