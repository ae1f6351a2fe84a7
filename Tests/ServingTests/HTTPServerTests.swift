import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Serving

@Suite("the HTTP server on 127.0.0.1: keep-alive, bounds, stop")
struct HTTPServerTests {
  /// The exchanges a server told of.
  final class Log: Sendable {
    let exchanges = Mutex<[HTTPServer.Exchange]>([])
    func withLock<T>(_ body: ([HTTPServer.Exchange]) -> T) -> T {
      exchanges.withLock { body($0) }
    }
  }

  /// A server answering `path` with the path and the parameter `n`, logging every exchange.
  static func server(
    limits: HTTPLimits = HTTPLimits(), log: Log? = nil, handler: HTTPServer.Handler? = nil
  ) throws -> HTTPServer {
    let server = try HTTPServer(
      address: "127.0.0.1", port: 0, limits: limits,
      onExchange: { exchange in log?.exchanges.withLock { $0.append(exchange) } },
      handler: handler ?? { request, _ in
        .text(request.path + " " + (request.parameter("n") ?? "-"))
      })
    server.start()
    return server
  }

  @Test("two requests on one connection, then one pipelined behind another, then close")
  func keepAlive() throws {
    let log = Log()
    let server = try Self.server(log: log)
    defer { server.stop() }
    let client = try RawClient(port: server.port)
    client.send("GET /a?n=1 HTTP/1.1\r\nHost: x\r\n\r\n")
    let first = try #require(client.response())
    #expect(first.status == 200)
    #expect(first.body == "/a 1")
    #expect(first.headers["connection"] == "keep-alive")
    client.send("GET /b?n=2 HTTP/1.1\r\n\r\nGET /c HTTP/1.1\r\nConnection: close\r\n\r\n")
    #expect(client.response()?.body == "/b 2")
    let last = try #require(client.response())
    #expect(last.body == "/c -")
    #expect(last.headers["connection"] == "close")
    #expect(client.isClosed())
    // The log has the path, never the query.
    #expect(log.withLock { $0.map(\.path) } == ["/a", "/b", "/c"])
    #expect(log.withLock { $0.map(\.peer.address) } == ["127.0.0.1", "127.0.0.1", "127.0.0.1"])
  }

  @Test("malformed HTTP is 400 and the connection closed; too large a head, 431")
  func malformed() throws {
    let server = try Self.server()
    defer { server.stop() }
    let client = try RawClient(port: server.port)
    client.send("NOT HTTP\r\n\r\n")
    #expect(client.response()?.status == 400)
    #expect(client.isClosed())
    let large = try RawClient(port: server.port)
    large.send("GET /" + String(repeating: "x", count: 20_000))
    #expect(large.response()?.status == 431)
    #expect(large.isClosed())
  }

  @Test("a request that arrives too slowly is 408 and closed; an idle connection is closed")
  func slow() throws {
    var limits = HTTPLimits()
    limits.requestTime = .milliseconds(200)
    limits.idleTime = .milliseconds(200)
    let server = try Self.server(limits: limits)
    defer { server.stop() }
    let slow = try RawClient(port: server.port)
    slow.send("GET / HT")
    #expect(slow.response()?.status == 408)
    #expect(slow.isClosed())
    let idle = try RawClient(port: server.port)
    idle.send("GET / HTTP/1.1\r\n\r\n")
    #expect(idle.response()?.status == 200)
    #expect(idle.isClosed())
  }

  @Test("past its connections, one waits for a place, then is answered 503")
  func busy() throws {
    var limits = HTTPLimits()
    limits.connections = 1
    limits.queueWait = .milliseconds(100)
    let server = try Self.server(limits: limits)
    defer { server.stop() }
    let first = try RawClient(port: server.port)
    first.send("GET /1 HTTP/1.1\r\n\r\n")
    #expect(first.response()?.status == 200)
    // The first holds the one place while it stays open.
    let second = try RawClient(port: server.port)
    #expect(second.response()?.status == 503)
    #expect(second.isClosed())
  }

  @Test("stop: the request in flight is answered (and closed), idle connections closed")
  func stop() throws {
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let server = try Self.server { request, _ in
      if request.path == "/held" {
        entered.signal()
        release.wait()
      }
      return HTTPResponse.text("done")
    }
    let idle = try RawClient(port: server.port)
    idle.send("GET /first HTTP/1.1\r\n\r\n")
    #expect(idle.response()?.status == 200)
    let held = try RawClient(port: server.port)
    held.send("GET /held HTTP/1.1\r\n\r\n")
    entered.wait()
    let stopped = DispatchSemaphore(value: 0)
    Thread {
      server.stop()
      stopped.signal()
    }.start()
    // The idle one closes once the server stops; the held one is still being answered.
    #expect(idle.isClosed())
    release.signal()
    let answer = try #require(held.response())
    #expect(answer.body == "done")
    #expect(answer.headers["connection"] == "close")
    stopped.wait()
    #expect(throws: (any Error).self) {
      let late = try RawClient(port: server.port)
      late.send("GET / HTTP/1.1\r\n\r\n")
      if late.response() == nil { throw POSIXError(.ECONNRESET) }
    }
  }

  @Test("a client that goes away in the middle of a large answer costs nothing to the others")
  func disconnectMidResponse() throws {
    let log = Log()
    let big = [UInt8](repeating: UInt8(ascii: "x"), count: 32 << 20)
    let server = try Self.server(log: log) { request, _ in
      request.path == "/big" ? HTTPResponse(body: big) : .text("small")
    }
    defer { server.stop() }
    do {
      let leaving = try RawClient(port: server.port)
      leaving.send("GET /big HTTP/1.1\r\n\r\n")
      // Reads nothing, and goes: the server's writes fail (no SIGPIPE ends the process).
    }
    let next = try RawClient(port: server.port)
    next.send("GET /small HTTP/1.1\r\n\r\n")
    #expect(next.response()?.body == "small")
  }

  @Test("an address that is not IPv4 is refused at start")
  func badAddress() {
    #expect(throws: HTTPServer.StartError.badAddress("example")) {
      _ = try HTTPServer(address: "example", port: 0) { _, _ in .text("") }
    }
  }
}
