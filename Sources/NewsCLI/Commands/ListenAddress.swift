/// Where `news serve` listens: an IPv4 address and a port (`127.0.0.1:8080`).
struct ListenAddress: Equatable {
  var host: String
  var port: UInt16

  static let loopback = ListenAddress(host: "127.0.0.1", port: 8080)

  init(host: String, port: UInt16) {
    self.host = host
    self.port = port
  }

  /// `host:port`, or a bare port (`8080`, on 127.0.0.1); `nil` for anything else.
  init?(_ text: String) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    let host = parts.count == 2 ? String(parts[0]) : "127.0.0.1"
    guard parts.count <= 2, let port = UInt16(parts.last ?? ""),
      Self.isIPv4(host)
    else { return nil }
    self.init(host: host, port: port)
  }

  /// Whether only this machine can reach it (`127.x.x.x`).
  var isLoopback: Bool { host.hasPrefix("127.") }

  var text: String { "\(host):\(port)" }

  private static func isIPv4(_ host: String) -> Bool {
    let octets = host.split(separator: ".", omittingEmptySubsequences: false)
    return octets.count == 4
      && octets.allSatisfy { $0.count <= 3 && !$0.isEmpty && UInt8($0) != nil }
  }
}
