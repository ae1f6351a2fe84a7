import Testing

@testable import Serving

@Suite("HTTP requests read within bounds")
struct HTTPRequestParserTests {
  static func parse(_ text: String, limits: HTTPLimits = HTTPLimits()) -> HTTPRequestParser.Outcome
  {
    HTTPRequestParser.parse(Array(text.utf8), limits: limits)
  }

  @Test("a GET: method, path, parameters decoded, headers in lower case, keep-alive")
  func get() throws {
    let text =
      "GET /reader/api/0/stream/items/ids?s=user%2F-%2Fstate&n=1000&i=1&i=2&q=a+b HTTP/1.1\r\nHost: x\r\nAuthorization: GoogleLogin auth=t \r\n\r\nGET /next"
    guard case .request(let request, let consumed) = Self.parse(text) else {
      Issue.record("not read")
      return
    }
    #expect(request.method == "GET")
    #expect(request.path == "/reader/api/0/stream/items/ids")
    #expect(request.parameter("s") == "user/-/state")
    #expect(request.parameters("i") == ["1", "2"])
    #expect(request.parameter("q") == "a b")
    #expect(request.header("AUTHORIZATION") == "GoogleLogin auth=t")
    #expect(request.keepsAlive)
    #expect(consumed == text.utf8.count - "GET /next".utf8.count)
  }

  @Test("a form body's parameters follow the query's; a body waits for all its bytes")
  func form() throws {
    let head =
      "POST /reader/api/0/edit-tag?T=x HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 18\r\n\r\n"
    #expect(Self.parse(head + "i=1&a=user") == .incomplete)
    guard case .request(let request, _) = Self.parse(head + "i=1&a=user%2F-%2Fx") else {
      Issue.record("not read")
      return
    }
    #expect(request.parameters.map(\.name) == ["T", "i", "a"])
    #expect(request.parameter("a") == "user/-/x")
  }

  @Test(
    "bad input is refused with its status",
    arguments: [
      ("GARBAGE\r\n\r\n", 400), ("GET / HTTP/2.0\r\n\r\n", 505), ("GET / FTP/1.0\r\n\r\n", 400),
      ("GET http://x/ HTTP/1.1\r\n\r\n", 400), ("G(T / HTTP/1.1\r\n\r\n", 400),
      ("GET / HTTP/1.1\r\nNo colon\r\n\r\n", 400), ("GET / HTTP/1.1\r\n: v\r\n\r\n", 400),
      ("GET / HTTP/1.1\r\nX: a\u{01}b\r\n\r\n", 400),
      ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 501),
      ("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400),
      ("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400),
      ("POST / HTTP/1.1\r\nContent-Length: 99999999999999\r\n\r\n", 413),
      ("POST / HTTP/1.1\r\nContent-Length: 1048577\r\n\r\n", 413),
      ("GET /%zz HTTP/1.1\r\n\r\n", 400), ("GET /?a=%ff HTTP/1.1\r\n\r\n", 400),
      (
        "POST / HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1\r\n\r\n\u{FF}",
        400
      ),
    ] as [(String, Int)])
  func refused(text: String, status: Int) {
    guard case .failure(let error) = Self.parse(text) else {
      Issue.record("accepted: \(text)")
      return
    }
    #expect(error.status == status, "\(text): \(error.reason)")
  }

  @Test("a head over 16 KiB or 100 headers is 431, whether or not it has ended")
  func bounds() {
    let long = "GET /" + String(repeating: "a", count: 17_000)
    guard case .failure(let unended) = Self.parse(long) else {
      Issue.record("waited on a head over the bound")
      return
    }
    #expect(unended.status == 431)
    guard case .failure(let ended) = Self.parse(long + " HTTP/1.1\r\n\r\n") else {
      Issue.record("accepted a head over the bound")
      return
    }
    #expect(ended.status == 431)
    let many = "GET / HTTP/1.1\r\n" + String(repeating: "X: y\r\n", count: 101) + "\r\n"
    guard case .failure(let headers) = Self.parse(many) else {
      Issue.record("accepted 101 headers")
      return
    }
    #expect(headers.status == 431)
    #expect(Self.parse("GET / HTTP/1.1\r\nHost: x\r\n") == .incomplete)
  }

  @Test("bare LF lines, empty lines first, HTTP/1.0 closes unless kept alive, HEAD")
  func tolerated() {
    guard case .request(let request, _) = Self.parse("\r\nGET /a HTTP/1.0\nX: 1\n\n") else {
      Issue.record("not read")
      return
    }
    #expect(request.path == "/a")
    #expect(!request.keepsAlive)
    guard
      case .request(let kept, _) = Self.parse(
        "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n"),
      case .request(let closed, _) = Self.parse("GET / HTTP/1.1\r\nConnection: close\r\n\r\n")
    else {
      Issue.record("not read")
      return
    }
    #expect(kept.keepsAlive)
    #expect(!closed.keepsAlive)
  }

  @Test("an answer: status line, headers, length, date, connection; HEAD has no body")
  func response() throws {
    let response = HTTPResponse.json("{}", status: 200)
    let text = String(
      decoding: response.serialized(keepAlive: true, date: .init(timeIntervalSince1970: 0)),
      as: UTF8.self)
    #expect(text.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"))
    #expect(text.contains("Content-Length: 2\r\n"))
    #expect(text.contains("Date: Thu, 01 Jan 1970 00:00:00 GMT\r\n"))
    #expect(text.hasSuffix("Connection: keep-alive\r\n\r\n{}"))
    let head = String(
      decoding: HTTPResponse.error(.headTooLarge).serialized(keepAlive: false, headOnly: true),
      as: UTF8.self)
    #expect(head.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
    #expect(head.hasSuffix("Connection: close\r\n\r\n"))
    // A header value cannot split the head.
    var injected = HTTPResponse.text("x")
    injected.headers.append(("X-Bad", "a\r\nSet-Cookie: b"))
    let bytes = String(decoding: injected.serialized(keepAlive: false), as: UTF8.self)
    #expect(!bytes.contains("Set-Cookie"))
  }
}
