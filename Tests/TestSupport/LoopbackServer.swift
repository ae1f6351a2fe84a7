import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for tests: POSIX sockets, a random free port, programmable
/// routes (status, headers, body, delay, dropped connection) and a log of every request.
///
/// Each connection is served on its own thread and closed after one response, so delayed routes
/// answer concurrently.
public final class LoopbackServer: Sendable {
  /// A request as the server received it.
  public struct Request: Sendable, Equatable {
    /// `GET`, `POST`, …
    public var method: String
    /// The request target: path and query, as sent (still percent-encoded).
    public var target: String
    /// Headers with lower-case names.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// The path without the query.
    public var path: String { String(target.prefix { $0 != "?" }) }

    /// The raw (still encoded) query string, or "".
    public var rawQuery: String {
      guard let question = target.firstIndex(of: "?") else { return "" }
      return String(target[target.index(after: question)...])
    }

    /// The decoded query items, in order.
    public var query: [String: String] {
      var items: [String: String] = [:]
      for pair in rawQuery.split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1).map {
          String($0).removingPercentEncoding ?? String($0)
        }
        items[parts[0]] = parts.count > 1 ? parts[1] : ""
      }
      return items
    }
  }

  /// What a route answers.
  public struct Response: Sendable {
    /// The status code.
    public var status: Int
    /// Extra headers (`Content-Length` and `Connection` are set by the server).
    public var headers: [String: String]
    /// The body.
    public var body: Data
    /// How long to wait before answering.
    public var delay: Duration
    /// Close the connection without answering.
    public var drop: Bool
    /// Send `body` this many times with no `Content-Length` (the end is the connection's close),
    /// stopping early when the client goes away: an endless or huge body.
    public var repeats: Int = 1
    /// Headers only: no `Content-Length`, no body, the connection held open until `delay` ends.
    public var omitsLength = false
    /// No answer at all until the server stops: a server that hangs, for deadline tests.
    public var held = false
    /// Send only this many bytes of `body` (its whole length declared), then close: a transfer
    /// cut off half way.
    public var truncatedAfter: Int?

    /// Creates a response.
    public init(
      status: Int = 200, headers: [String: String] = [:], body: Data = Data(),
      delay: Duration = .zero, drop: Bool = false
    ) {
      self.status = status
      self.headers = headers
      self.body = body
      self.delay = delay
      self.drop = drop
    }

    /// A JSON body.
    public static func json(
      _ text: String, status: Int = 200, headers: [String: String] = [:], delay: Duration = .zero
    ) -> Response {
      var all = headers
      all["Content-Type"] = "application/json"
      return Response(status: status, headers: all, body: Data(text.utf8), delay: delay)
    }

    /// A JSON body read from a fixture file.
    public static func fixture(_ name: String, status: Int = 200, delay: Duration = .zero)
      -> Response
    {
      Response(
        status: status, headers: ["Content-Type": "application/json"],
        body: Fixtures.data(name), delay: delay)
    }

    /// A connection closed without an answer.
    public static let dropped = Response(drop: true)

    /// A request held unanswered until the server stops: a hanging server, without a timer.
    public static var held: Response {
      var response = Response(drop: true)
      response.held = true
      return response
    }

    /// `chunk` sent `count` times without a `Content-Length`, as a streamed body.
    public static func streamed(_ chunk: Data, count: Int) -> Response {
      var response = Response(
        status: 200, headers: ["Content-Type": "application/json"], body: chunk)
      response.repeats = count
      response.omitsLength = true
      return response
    }

    /// `body` as a file server sends it: the part a `Range: bytes=<n>-` asks for (`206` with
    /// `Content-Range`) unless an `If-Range` names another version (then all of it, `200`); a
    /// range past the end is `416`. With `honoursRange: false`, always all of it.
    public static func file(
      _ body: Data, for request: Request, type: String = "audio/mpeg", etag: String? = nil,
      honoursRange: Bool = true
    ) -> Response {
      var headers = ["Content-Type": type, "Accept-Ranges": honoursRange ? "bytes" : "none"]
      if let etag { headers["ETag"] = etag }
      guard honoursRange, let range = request.headers["range"], range.hasPrefix("bytes="),
        request.headers["if-range"] == nil || request.headers["if-range"] == etag,
        let start = Int(range.dropFirst(6).prefix { $0 != "-" })
      else { return Response(status: 200, headers: headers, body: body) }
      guard start < body.count else {
        headers["Content-Range"] = "bytes */\(body.count)"
        return Response(status: 416, headers: headers)
      }
      headers["Content-Range"] = "bytes \(start)-\(body.count - 1)/\(body.count)"
      return Response(status: 206, headers: headers, body: body.subdata(in: start..<body.count))
    }

    /// A redirect to `location`.
    public static func redirect(_ status: Int = 302, to location: String) -> Response {
      Response(status: status, headers: ["Location": location])
    }
  }

  /// Computes the response to a request.
  public typealias Handler = @Sendable (Request) -> Response

  private struct State {
    var routes: [String: Handler] = [:]
    var prefixRoutes: [(prefix: String, handler: Handler)] = []
    var log: [Request] = []
    var unexpected: [Request] = []
    var bytesSent: [String: Int] = [:]
    var stopped = false
  }

  /// The port the server listens on.
  public let port: UInt16
  private let listener: Int32
  private let state = Mutex(State())
  /// Wakes the handlers held in ``hold()`` when the server stops.
  private let holding = NSCondition()

  /// `http://127.0.0.1:<port>`.
  public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

  /// Starts listening on a free port of 127.0.0.1.
  public init() throws {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw ServerError.socket(errno) }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(fd, 64) == 0 else {
      close(fd)
      throw ServerError.socket(errno)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    port = UInt16(bigEndian: address.sin_port)
    listener = fd
    let thread = Thread { [self] in acceptLoop() }
    thread.start()
  }

  deinit { stop() }

  /// Answers requests for `path` (query ignored) with `handler`.
  public func route(_ path: String, _ handler: @escaping Handler) {
    state.withLock { $0.routes[path] = handler }
  }

  /// Answers requests for every path that starts with `prefix` (`/info/likes/`) with `handler`,
  /// unless a route for the exact path exists.
  public func route(prefix: String, _ handler: @escaping Handler) {
    state.withLock { $0.prefixRoutes.append((prefix, handler)) }
  }

  /// Answers requests for `path` with `responses` in turn; the last one repeats.
  public func route(_ path: String, responses: [Response]) {
    let counter = Mutex(0)
    route(path) { _ in
      let index = counter.withLock { count in
        defer { count += 1 }
        return min(count, responses.count - 1)
      }
      return responses[index]
    }
  }

  /// Answers requests for `path` with `response` every time.
  public func route(_ path: String, _ response: Response) {
    route(path) { _ in response }
  }

  /// Every request received so far, in order of arrival.
  public var requests: [Request] { state.withLock { $0.log } }

  /// The requests for paths no route was set up for: a test fails when there are any.
  public var unexpectedRequests: [Request] { state.withLock { $0.unexpected } }

  /// How many body bytes were written in answers to `path`.
  public func bytesSent(to path: String) -> Int { state.withLock { $0.bytesSent[path] ?? 0 } }

  /// The requests received for `path`.
  public func requests(to path: String) -> [Request] { requests.filter { $0.path == path } }

  /// Stops listening. Connections already accepted are still answered.
  public func stop() {
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
  public func hold() {
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

  /// The server could not start.
  public enum ServerError: Error {
    /// A socket call failed with this `errno`.
    case socket(Int32)
  }
}

extension Duration {
  /// The duration in seconds, for `Thread.sleep`.
  var secondsValue: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
