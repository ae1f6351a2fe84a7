import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The listening socket, routes and log of a ``LoopbackServer``, and the threads that serve it:
/// the accept thread and each connection's thread hold this, never the server itself.
final class LoopbackConnections: Sendable {
  typealias Request = LoopbackServer.Request
  typealias Response = LoopbackServer.Response
  typealias Handler = LoopbackServer.Handler

  struct State {
    var routes: [String: Handler] = [:]
    var prefixRoutes: [(prefix: String, handler: Handler)] = []
    var log: [Request] = []
    var unexpected: [Request] = []
    var bytesSent: [String: Int] = [:]
    var stopped = false
  }

  let listener: Int32
  let state = Mutex(State())
  /// Wakes the handlers held in ``hold()`` when the server stops.
  private let holding = NSCondition()

  init(listener: Int32) { self.listener = listener }

  /// Starts accepting connections.
  func start() {
    let thread = Thread { [self] in acceptLoop() }
    thread.start()
  }

  /// Stops listening. Connections already accepted are still answered.
  func stop() {
    let wasStopped = state.withLock { state in
      defer { state.stopped = true }
      return state.stopped
    }
    guard !wasStopped else { return }
    holding.lock()
    holding.broadcast()
    holding.unlock()
    // Only shut down here: the accept thread closes the descriptor itself when it leaves, so its
    // number cannot be reused by another test's socket while that thread still accepts on it.
    shutdown(listener, Int32(SHUT_RDWR))
  }

  /// Blocks the calling handler until the server stops: the request it serves hangs for as long as
  /// the test needs, with no timer to outlast.
  func hold() {
    holding.lock()
    while !state.withLock({ $0.stopped }) { holding.wait() }
    holding.unlock()
  }

  private func acceptLoop() {
    defer { close(listener) }
    while true {
      let connection = accept(listener, nil, nil)
      if connection < 0 {
        if errno == EINTR { continue }
        return
      }
      if state.withLock({ $0.stopped }) {
        close(connection)
        return
      }
      let thread = Thread { [self] in serve(connection) }
      thread.start()
    }
  }

  private func serve(_ connection: Int32) {
    defer { close(connection) }
    guard let request = readRequest(connection) else { return }
    let handler = state.withLock { state in
      state.log.append(request)
      let handler =
        state.routes[request.path]
        ?? state.prefixRoutes.last(where: { request.path.hasPrefix($0.prefix) })?.handler
      if handler == nil { state.unexpected.append(request) }
      return handler
    }
    let response =
      handler?(request) ?? .json(#"{"error":"no route for \#(request.path)"}"#, status: 404)
    if response.held { hold() }
    if response.delay > .zero, !response.omitsLength {
      Thread.sleep(forTimeInterval: response.delay.secondsValue)
    }
    if response.drop { return }
    var head = "HTTP/1.1 \(response.status) \(reason(response.status))\r\n"
    for (name, value) in response.headers where name.lowercased() != "content-length" {
      head += "\(name): \(value)\r\n"
    }
    if response.omitsLength {
      head += "Connection: close\r\n\r\n"
      guard writeAll(connection, Data(head.utf8)) else { return }
      if response.delay > .zero { Thread.sleep(forTimeInterval: response.delay.secondsValue) }
      for _ in 0..<response.repeats {
        guard writeAll(connection, response.body) else { return }
        state.withLock { $0.bytesSent[request.path, default: 0] += response.body.count }
      }
      return
    }
    head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
    if let cut = response.truncatedAfter {
      if writeAll(connection, Data(head.utf8) + response.body.prefix(cut)) {
        state.withLock { $0.bytesSent[request.path, default: 0] += min(cut, response.body.count) }
      }
      return
    }
    if writeAll(connection, Data(head.utf8) + response.body) {
      state.withLock { $0.bytesSent[request.path, default: 0] += response.body.count }
    }
  }

  private func readRequest(_ connection: Int32) -> Request? {
    var buffer = Data()
    var chunk = [UInt8](repeating: 0, count: 16_384)
    let separator = Data("\r\n\r\n".utf8)
    var headerEnd: Range<Data.Index>?
    while headerEnd == nil {
      let count = recv(connection, &chunk, chunk.count, 0)
      if count <= 0 { return nil }
      buffer.append(contentsOf: chunk[0..<count])
      headerEnd = buffer.range(of: separator)
      if buffer.count > 1 << 20 { return nil }
    }
    guard let headerEnd,
      let head = String(data: buffer[buffer.startIndex..<headerEnd.lowerBound], encoding: .utf8)
    else { return nil }
    var lines = head.components(separatedBy: "\r\n")
    let requestLine = lines.removeFirst().split(separator: " ")
    guard requestLine.count >= 2 else { return nil }
    var headers: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    var body = Data(buffer[headerEnd.upperBound...])
    let length = headers["content-length"].flatMap(Int.init) ?? 0
    while body.count < length {
      let count = recv(connection, &chunk, chunk.count, 0)
      if count <= 0 { break }
      body.append(contentsOf: chunk[0..<count])
    }
    return Request(
      method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body)
  }

  @discardableResult
  private func writeAll(_ connection: Int32, _ data: Data) -> Bool {
    data.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        #if canImport(Glibc)
          let sent = send(
            connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
        #else
          let sent = send(connection, raw.baseAddress! + offset, raw.count - offset, 0)
        #endif
        if sent <= 0 { return false }
        offset += sent
      }
      return true
    }
  }

  private func reason(_ status: Int) -> String {
    switch status {
    case 200: return "OK"
    case 301: return "Moved Permanently"
    case 302: return "Found"
    case 303: return "See Other"
    case 307: return "Temporary Redirect"
    case 308: return "Permanent Redirect"
    case 304: return "Not Modified"
    case 206: return "Partial Content"
    case 416: return "Range Not Satisfiable"
    case 400: return "Bad Request"
    case 401: return "Unauthorized"
    case 404: return "Not Found"
    case 429: return "Too Many Requests"
    case 500: return "Internal Server Error"
    case 503: return "Service Unavailable"
    default: return "Status"
    }
  }
}
