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

  /// The port the server listens on.
  public let port: UInt16
  /// What the threads serving connections share; they hold it, not the server, so a server
  /// no test holds any more stops (its ``deinit``) and its threads end.
  private let connections: LoopbackConnections

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
    connections = LoopbackConnections(listener: fd)
    connections.start()
  }

  deinit { stop() }

  /// Answers requests for `path` (query ignored) with `handler`.
  public func route(_ path: String, _ handler: @escaping Handler) {
    connections.state.withLock { $0.routes[path] = handler }
  }

  /// Answers requests for every path that starts with `prefix` (`/info/likes/`) with `handler`,
  /// unless a route for the exact path exists.
  public func route(prefix: String, _ handler: @escaping Handler) {
    connections.state.withLock { $0.prefixRoutes.append((prefix, handler)) }
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
  public var requests: [Request] { connections.state.withLock { $0.log } }

  /// The requests for paths no route was set up for: a test fails when there are any.
  public var unexpectedRequests: [Request] { connections.state.withLock { $0.unexpected } }

  /// How many body bytes were written in answers to `path`.
  public func bytesSent(to path: String) -> Int {
    connections.state.withLock { $0.bytesSent[path] ?? 0 }
  }

  /// The requests received for `path`.
  public func requests(to path: String) -> [Request] { requests.filter { $0.path == path } }

  /// Stops listening. Connections already accepted are still answered.
  public func stop() { connections.stop() }

  /// Blocks the calling handler until the server stops: the request it serves hangs for as long as
  /// the test needs, with no timer to outlast. Take it before the handler (`let hold =
  /// server.hold`): a handler that holds its own server keeps that server from ever stopping.
  public var hold: @Sendable () -> Void { { [connections] in connections.hold() } }

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
