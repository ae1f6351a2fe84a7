import Foundation

/// One HTTP/1.x request as read from a connection: its method, path, parameters (the query's and
/// a form body's, decoded), headers and body.
public struct HTTPRequest: Sendable, Equatable {
  /// `GET`, `POST`, … as sent (methods are case-sensitive).
  public var method: String
  /// The request target as sent (`/reader/api/0/stream/contents?n=20`).
  public var target: String
  /// The target's path, percent-decoded (`/reader/api/0/stream/contents/feed/https://x`).
  public var path: String
  /// The query's parameters, then a form body's (`application/x-www-form-urlencoded`), in order,
  /// decoded; a name may repeat (`i=1&i=2`).
  public var parameters: [(name: String, value: String)]
  /// The headers, names in lower case, in order.
  public var headers: [(name: String, value: String)]
  /// The body (empty without one).
  public var body: [UInt8]
  /// `1` for HTTP/1.1, `0` for HTTP/1.0.
  public var minorVersion: Int

  /// A request of `method` for `target` (its path and query read from it), as a test builds one.
  public init(
    method: String, target: String, headers: [(name: String, value: String)] = [],
    body: [UInt8] = [], minorVersion: Int = 1
  ) throws(HTTPError) {
    self.method = method
    self.target = target
    self.headers = headers.map { ($0.name.lowercased(), $0.value) }
    self.body = body
    self.minorVersion = minorVersion
    let question = target.firstIndex(of: "?")
    let rawPath = String(target[..<(question ?? target.endIndex)])
    guard let decoded = FormEncoding.percentDecoded(rawPath, plusIsSpace: false) else {
      throw .badRequest("the path is not percent-encoded UTF-8")
    }
    path = decoded
    parameters = []
    if let question {
      parameters = try FormEncoding.parameters(String(target[target.index(after: question)...]))
    }
    if header("content-type")?.lowercased().hasPrefix("application/x-www-form-urlencoded")
      == true
    {
      guard let text = String(validating: body, as: UTF8.self) else {
        throw .badRequest("the form body is not UTF-8")
      }
      parameters += try FormEncoding.parameters(text)
    }
  }

  /// The first value of the header `name` (any case).
  public func header(_ name: String) -> String? {
    let name = name.lowercased()
    return headers.first { $0.name == name }?.value
  }

  /// The first value of the parameter `name`.
  public func parameter(_ name: String) -> String? {
    parameters.first { $0.name == name }?.value
  }

  /// Every value of the parameter `name`, in order (`i=1&i=2`).
  public func parameters(_ name: String) -> [String] {
    parameters.filter { $0.name == name }.map(\.value)
  }

  /// Whether the connection stays open after the answer: HTTP/1.1 unless `Connection: close`,
  /// HTTP/1.0 only with `Connection: keep-alive`.
  public var keepsAlive: Bool {
    let tokens = (header("connection") ?? "").lowercased().split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    return minorVersion >= 1 ? !tokens.contains("close") : tokens.contains("keep-alive")
  }

  public static func == (left: HTTPRequest, right: HTTPRequest) -> Bool {
    left.method == right.method && left.target == right.target && left.body == right.body
      && left.minorVersion == right.minorVersion
      && left.headers.elementsEqual(right.headers) { $0 == $1 }
  }
}
