import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An HTTP/1.1 server on POSIX sockets, knowing nothing of what it serves: a thread a
/// connection (at most ``HTTPLimits/connections`` at once), keep-alive, requests read within
/// ``HTTPLimits``, each answered by the handler. ``stop()`` stops accepting, closes the idle
/// connections, and returns once the requests in flight are answered.
public final class HTTPServer: Sendable {
  /// Where a request came from.
  public struct Peer: Sendable, Equatable {
    /// `127.0.0.1`.
    public var address: String
    public var port: UInt16

    public init(address: String, port: UInt16) {
      self.address = address
      self.port = port
    }
  }

  /// One request and its answer, for the log (the path only: a query may hold secrets).
  public struct Exchange: Sendable {
    public var peer: Peer
    public var method: String
    public var path: String
    public var status: Int
    /// The body's bytes.
    public var bytes: Int
    public var duration: Duration
    /// The handler's note for the log (``HTTPResponse/note``).
    public var note: String? = nil
  }

  /// Answers a request.
  public typealias Handler = @Sendable (HTTPRequest, Peer) -> HTTPResponse

  /// Why the server could not start.
  public enum StartError: Error, Equatable {
    /// `address` is not an IPv4 address.
    case badAddress(String)
    /// The socket call `call` failed with `errno`.
    case socket(call: String, errno: Int32)
  }

  /// The port it listens on (the one the system chose when asked for 0).
  public let port: UInt16
  private let listener: Int32
  /// Written once on stop: every connection waiting for a request wakes and closes.
  private let wake: (read: Int32, write: Int32)
  private let limits: HTTPLimits
  private let handler: Handler
  private let onExchange: @Sendable (Exchange) -> Void
  private let slots: DispatchSemaphore
  private let running = DispatchGroup()
  private let stopped = Atomic<Bool>(false)

  /// Listens on `address` (IPv4, `127.0.0.1`) and `port` (0: any free one); serving starts with
  /// ``start()``. Each exchange is told to `onExchange`.
  public init(
    address: String, port: UInt16, limits: HTTPLimits = HTTPLimits(),
    onExchange: @escaping @Sendable (Exchange) -> Void = { _ in }, handler: @escaping Handler
  ) throws(StartError) {
    var inet = in_addr()
    guard inet_pton(AF_INET, address, &inet) == 1 else { throw .badAddress(address) }
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw .socket(call: "socket", errno: errno) }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var socketAddress = sockaddr_in()
    socketAddress.sin_family = sa_family_t(AF_INET)
    socketAddress.sin_port = port.bigEndian
    socketAddress.sin_addr = inet
    let bound = withUnsafePointer(to: &socketAddress) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else {
      let error = errno
      close(fd)
      throw .socket(call: "bind", errno: error)
    }
    guard listen(fd, 128) == 0 else {
      let error = errno
      close(fd)
      throw .socket(call: "listen", errno: error)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &socketAddress) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else {
      let error = errno
      close(fd)
      throw .socket(call: "pipe", errno: error)
    }
    self.port = UInt16(bigEndian: socketAddress.sin_port)
    self.listener = fd
    self.wake = (pipeEnds[0], pipeEnds[1])
    self.limits = limits
    self.handler = handler
    self.onExchange = onExchange
    self.slots = DispatchSemaphore(value: limits.connections)
  }

  deinit {
    if !isStopped { close(listener) }
    close(wake.read)
    close(wake.write)
  }

  /// Starts accepting connections, on a thread of its own.
  public func start() {
    running.enter()
    let thread = Thread { [self] in
      acceptLoop()
      running.leave()
    }
    thread.start()
  }

  /// Stops accepting, closes idle connections, and returns once every request in flight is
  /// answered (each then closes its connection).
  public func stop() {
    guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
    var byte: UInt8 = 1
    _ = write(wake.write, &byte, 1)
    running.wait()
    // No connection is accepted from now on: one tried is refused at once.
    close(listener)
  }

  private var isStopped: Bool { stopped.load(ordering: .sequentiallyConsistent) }

  private func acceptLoop() {
    while !isStopped {
      guard wait(for: listener, until: nil) == .readable else { break }
      var peerAddress = sockaddr_in()
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let connection = withUnsafeMutablePointer(to: &peerAddress) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
      }
      guard connection >= 0 else { continue }
      #if canImport(Darwin)
        var yes: Int32 = 1
        setsockopt(
          connection, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
      #endif
      let peer = Peer(
        address: Self.text(of: peerAddress.sin_addr), port: UInt16(bigEndian: peerAddress.sin_port))
      running.enter()
      let thread = Thread { [self] in
        if slots.wait(timeout: .now() + limits.queueWait.timeInterval) == .timedOut {
          let busy = HTTPResponse.text("the server is busy: try again\n", status: 503)
          send(busy.serialized(keepAlive: false), to: connection)
        } else {
          serve(connection, peer: peer)
          slots.signal()
        }
        close(connection)
        running.leave()
      }
      thread.start()
    }
  }

  /// Reads and answers requests on `connection` until it closes, fails, idles out or the server
  /// stops.
  private func serve(_ connection: Int32, peer: Peer) {
    let clock = ContinuousClock()
    var buffer: [UInt8] = []
    var lastActivity = clock.now
    var requestStarted: ContinuousClock.Instant?
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      switch HTTPRequestParser.parse(buffer, limits: limits) {
      case .request(let request, let consumed):
        buffer.removeFirst(consumed)
        let started = requestStarted ?? clock.now
        let response = handler(request, peer)
        let keepAlive = request.keepsAlive && !isStopped
        send(
          response.serialized(keepAlive: keepAlive, headOnly: request.method == "HEAD"),
          to: connection)
        onExchange(
          Exchange(
            peer: peer, method: request.method, path: request.path, status: response.status,
            bytes: response.body.count, duration: clock.now - started, note: response.note))
        guard keepAlive else { return }
        requestStarted = buffer.isEmpty ? nil : clock.now
        lastActivity = clock.now
        continue
      case .failure(let error):
        let response = HTTPResponse.error(error)
        send(response.serialized(keepAlive: false), to: connection)
        onExchange(
          Exchange(
            peer: peer, method: "-", path: "-", status: response.status,
            bytes: response.body.count,
            duration: clock.now - (requestStarted ?? lastActivity)))
        return
      case .incomplete:
        break
      }
      // Idle between requests, the server's stop closes the connection at once.
      if buffer.isEmpty, isStopped { return }
      let deadline =
        requestStarted.map { $0 + limits.requestTime } ?? lastActivity + limits.idleTime
      switch wait(for: connection, until: deadline, watchingStop: buffer.isEmpty) {
      case .readable:
        let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return }
        if requestStarted == nil { requestStarted = clock.now }
        buffer += chunk[0..<count]
      case .timedOut:
        if !buffer.isEmpty {
          let slow = HTTPResponse.text("the request took too long to arrive\n", status: 408)
          send(slow.serialized(keepAlive: false), to: connection)
          onExchange(
            Exchange(
              peer: peer, method: "-", path: "-", status: 408, bytes: slow.body.count,
              duration: clock.now - (requestStarted ?? lastActivity)))
        }
        return
      case .stopped, .failed:
        return
      }
    }
  }

  private enum Readiness { case readable, timedOut, stopped, failed }

  /// Waits until `fd` can be read, `deadline` passes (none: forever), or, when `watchingStop`,
  /// the server stops.
  private func wait(
    for fd: Int32, until deadline: ContinuousClock.Instant?, watchingStop: Bool = true
  ) -> Readiness {
    let clock = ContinuousClock()
    while true {
      var timeout: Int32 = -1
      if let deadline {
        let left = deadline - clock.now
        guard left > .zero else { return .timedOut }
        let milliseconds =
          left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
        timeout = Int32(clamping: max(1, milliseconds))
      }
      var fds = [
        pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
        pollfd(fd: watchingStop ? wake.read : -1, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&fds, nfds_t(fds.count), timeout)
      if ready < 0 {
        if errno == EINTR { continue }
        return .failed
      }
      if fds[1].revents != 0 { return .stopped }
      if fds[0].revents != 0 { return .readable }
      if ready == 0, deadline != nil, clock.now >= deadline! { return .timedOut }
    }
  }

  /// Writes all of `bytes` (a peer that went away is let go).
  private func send(_ bytes: [UInt8], to connection: Int32) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer in
        #if canImport(Glibc)
          Glibc.send(
            connection, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
        #else
          Darwin.send(connection, buffer.baseAddress! + offset, buffer.count - offset, 0)
        #endif
      }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return }
      offset += written
    }
  }

  private static func text(of address: in_addr) -> String {
    var address = address
    var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
    guard inet_ntop(AF_INET, &address, &text, socklen_t(text.count)) != nil else { return "?" }
    return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

extension Duration {
  /// In seconds, for Dispatch.
  var timeInterval: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
