import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A connection to 127.0.0.1 that sends bytes as given and reads answers as they come: what a
/// test needs to send half a request, two at once, or nothing at all.
final class RawClient {
  let fd: Int32
  private var pending: [UInt8] = []

  init(port: UInt16) throws {
    #if canImport(Glibc)
      fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    // A test never hangs on a server that does not answer: a minute, then the read fails.
    var limit = timeval(tv_sec: 60, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
  }

  deinit { close(fd) }

  func send(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, 0) }
  }

  /// One answer: its status, headers (lower case) and body; `nil` when the connection closed
  /// first.
  func response() -> (status: Int, headers: [String: String], body: String)? {
    while true {
      if let end = headEnd() {
        let head = String(decoding: pending[..<end], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let status = Int(lines.removeFirst().split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines where !line.isEmpty {
          let parts = line.split(separator: ":", maxSplits: 1)
          headers[parts[0].lowercased()] =
            parts.count > 1
            ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        if pending.count >= end + 4 + length {
          let body = String(decoding: pending[(end + 4)..<(end + 4 + length)], as: UTF8.self)
          pending.removeFirst(end + 4 + length)
          return (status, headers, body)
        }
      }
      guard fill() else { return nil }
    }
  }

  /// Whether the server closed the connection (nothing more comes).
  func isClosed() -> Bool {
    pending.isEmpty && !fill()
  }

  private func fill() -> Bool {
    var chunk = [UInt8](repeating: 0, count: 65_536)
    let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return false }
    pending += chunk[0..<count]
    return true
  }

  private func headEnd() -> Int? {
    guard pending.count >= 4 else { return nil }
    for index in 0...(pending.count - 4)
    where pending[index] == 13 && pending[index + 1] == 10 && pending[index + 2] == 13
      && pending[index + 3] == 10
    {
      return index
    }
    return nil
  }
}
