/// Reads one request from the start of the bytes a connection has received so far, within
/// ``HTTPLimits``: the request line, the headers, then a body of `Content-Length` bytes. Lines
/// end with CRLF (a bare LF is read as one, as RFC 9112 lets a server). Nothing else is read: no
/// line folding, no `Transfer-Encoding`, one `Content-Length`.
public enum HTTPRequestParser {
  /// What the bytes so far hold.
  public enum Outcome: Sendable, Equatable {
    /// Not a whole request yet (and nothing wrong so far).
    case incomplete
    /// A request, and how many bytes of the buffer it took (a pipelined one may follow).
    case request(HTTPRequest, consumed: Int)
    /// A request that cannot be served: answer its status and close.
    case failure(HTTPError)
  }

  /// The request at the start of `bytes`, if it is all there.
  public static func parse(_ bytes: [UInt8], limits: HTTPLimits) -> Outcome {
    guard let headEnd = endOfHead(bytes, limit: limits.headBytes) else {
      return bytes.count > limits.headBytes ? .failure(.headTooLarge) : .incomplete
    }
    do {
      return try request(bytes, head: headEnd, limits: limits)
    } catch {
      return .failure(error)
    }
  }

  /// Where the blank line that ends the head ends (the index after it), searched within the
  /// first `limit` bytes.
  private static func endOfHead(_ bytes: [UInt8], limit: Int) -> (lines: Int, body: Int)? {
    let end = min(bytes.count, limit + 4)
    var index = 0
    while index < end {
      guard bytes[index] == 0x0A else {
        index += 1
        continue
      }
      // `\n\n` or `\n\r\n`: an empty line.
      if index + 1 < bytes.count, bytes[index + 1] == 0x0A { return (index, index + 2) }
      if index + 2 < bytes.count, bytes[index + 1] == 0x0D, bytes[index + 2] == 0x0A {
        return (index, index + 3)
      }
      index += 1
    }
    return nil
  }

  private static func request(_ bytes: [UInt8], head: (lines: Int, body: Int), limits: HTTPLimits)
    throws(HTTPError) -> Outcome
  {
    guard head.body <= limits.headBytes + 4 else { throw .headTooLarge }
    var lines = bytes[..<head.lines].split(separator: 0x0A, omittingEmptySubsequences: false)
      .map { line in line.last == 0x0D ? line.dropLast() : line }
    // A client may send empty lines before a request (RFC 9112, 2.2).
    while lines.first?.isEmpty == true { lines.removeFirst() }
    guard let requestLine = lines.first else { throw .badRequest("no request line") }
    guard lines.count - 1 <= limits.headerCount else { throw .headTooLarge }
    let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty,
      parts[0].allSatisfy(isTokenByte)
    else { throw .badRequest("the request line is not 'METHOD target HTTP/1.1'") }
    let version = String(decoding: parts[2], as: UTF8.self)
    guard version.hasPrefix("HTTP/") else { throw .badRequest("the request line has no version") }
    let minor: Int
    switch version {
    case "HTTP/1.1": minor = 1
    case "HTTP/1.0": minor = 0
    default: throw .versionNotSupported
    }
    // The target: printable ASCII, in origin form (`/path?query`).
    guard parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }), parts[1].first == UInt8(ascii: "/")
    else { throw .badRequest("the request target is not a path") }
    var headers: [(name: String, value: String)] = []
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
        line[..<colon].allSatisfy(isTokenByte)
      else { throw .badRequest("a header line is not 'Name: value'") }
      let value = line[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
      guard !value.contains(where: { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F }) else {
        throw .badRequest("a header holds a control character")
      }
      var trimmed = value[...]
      while let last = trimmed.last, last == 0x20 || last == 0x09 { trimmed = trimmed.dropLast() }
      headers.append(
        (
          String(decoding: line[..<colon], as: UTF8.self).lowercased(),
          String(decoding: trimmed, as: UTF8.self)
        ))
    }
    if headers.contains(where: { $0.name == "transfer-encoding" }) {
      throw .notImplemented("bodies with Transfer-Encoding are not read: send Content-Length")
    }
    let lengths = Set(headers.filter { $0.name == "content-length" }.map(\.value))
    var length = 0
    if let text = lengths.first {
      guard lengths.count == 1, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
      else { throw .badRequest("Content-Length is not one number") }
      guard text.utf8.count <= 10, let value = Int(text), value <= limits.bodyBytes else {
        throw .bodyTooLarge
      }
      length = value
    }
    guard bytes.count - head.body >= length else { return .incomplete }
    let request = try HTTPRequest(
      method: String(decoding: parts[0], as: UTF8.self),
      target: String(decoding: parts[1], as: UTF8.self), headers: headers,
      body: Array(bytes[head.body..<(head.body + length)]), minorVersion: minor)
    return .request(request, consumed: head.body + length)
  }

  /// A byte of a token (a method, a header's name): RFC 9110's `tchar`.
  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
  }
}
