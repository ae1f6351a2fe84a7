import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A request as the program sends it: what ``HTTPTransport`` hands an ``HTTPClient``.
///
/// A value of the program's own rather than Foundation's `URLRequest`, whose every setter copies
/// its storage and whose header fields are looked through, lower-casing each, at every change (a
/// twentieth of a refresh where every source answers `304`). ``URLSessionHTTPClient`` makes one
/// of these a `URLRequest`; libcurl reads it as it is.
public struct OutgoingRequest: Sendable {
  /// `GET`, `POST`, `PUT`, …
  public var method: String
  /// Where it goes.
  public var url: URL
  /// Its header fields, one a name (two names that differ only in case are one field).
  public var headers: [String: String]
  /// What it sends, if anything.
  public var body: Data?
  /// The longest it may take, in seconds (for a stream, the longest wait for a byte).
  public var timeout: TimeInterval

  /// A request of `method` to `url`, with `headers`, `body` and `timeout`.
  public init(
    method: String = "GET", url: URL, headers: [String: String] = [:], body: Data? = nil,
    timeout: TimeInterval = 60
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.timeout = timeout
  }

  /// The same request as Foundation's.
  var urlRequest: URLRequest {
    var request = URLRequest(url: url)
    if method != "GET" { request.httpMethod = method }
    if let body { request.httpBody = body }
    request.timeoutInterval = timeout
    request.allHTTPHeaderFields = headers
    return request
  }
}
