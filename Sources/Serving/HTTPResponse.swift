import Foundation

/// An answer: a status, headers and a body, written with its `Content-Length`.
public struct HTTPResponse: Sendable {
  /// The status code (`200`).
  public var status: Int
  /// Headers besides `Content-Length`, `Connection` and `Date`, which are written for it.
  public var headers: [(name: String, value: String)]
  /// The body.
  public var body: [UInt8]
  /// What the log line adds after the status (`3 ids not found`); never sent.
  public var note: String?

  /// An answer of `status` with `body`, of `contentType`.
  public init(
    status: Int = 200, contentType: String = "text/plain; charset=utf-8", body: [UInt8] = [],
    headers: [(name: String, value: String)] = []
  ) {
    self.status = status
    self.headers = [("Content-Type", contentType)] + headers
    self.body = body
  }

  /// A text answer.
  public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
    HTTPResponse(status: status, body: Array(text.utf8))
  }

  /// A JSON answer of `text` (already JSON).
  public static func json(_ text: String, status: Int = 200) -> HTTPResponse {
    HTTPResponse(status: status, contentType: "application/json", body: Array(text.utf8))
  }

  /// The answer to a request that cannot be served.
  public static func error(_ error: HTTPError) -> HTTPResponse {
    .text(error.reason + "\n", status: error.status)
  }

  /// The status's reason phrase.
  public static func reason(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 204: "No Content"
    case 304: "Not Modified"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 413: "Content Too Large"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 503: "Service Unavailable"
    case 505: "HTTP Version Not Supported"
    default: "Status"
    }
  }

  /// The bytes on the wire: the status line, headers, then the body unless `headOnly` (a `HEAD`
  /// request); `Connection: close` unless `keepAlive`.
  public func serialized(keepAlive: Bool, headOnly: Bool = false, date: Date = Date()) -> [UInt8] {
    var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
    for (name, value) in headers
    where !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) {
      head += "\(name): \(value)\r\n"
    }
    head += "Content-Length: \(body.count)\r\n"
    head += "Date: \(Self.httpDate(date))\r\n"
    head += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
    head += "\r\n"
    return Array(head.utf8) + (headOnly ? [] : body)
  }

  /// `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110's IMF-fixdate).
  static func httpDate(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "GMT") ?? .gmt
    let parts = calendar.dateComponents(
      [.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
    let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    func two(_ value: Int?) -> String {
      let value = value ?? 0
      return value < 10 ? "0\(value)" : "\(value)"
    }
    return "\(days[((parts.weekday ?? 1) - 1) % 7]), \(two(parts.day)) "
      + "\(months[((parts.month ?? 1) - 1) % 12]) \(parts.year ?? 1970) "
      + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) GMT"
  }
}
