import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A response as the program's clients see it.
public struct HTTPResponse: Sendable {
  /// The HTTP status code.
  public var status: Int
  /// Response headers, with lower-case names.
  public var headers: [String: String]
  /// The body.
  public var body: Data
  /// How many attempts it took.
  public var attempts: Int
  /// The URL that answered, after any redirects (`nil` when unknown).
  public var url: URL?
  /// Where the request was moved for good: the URL that answered, when it was redirected and
  /// every redirect on the way was permanent (301 or 308); `nil` otherwise.
  public var permanentURL: URL?

  /// Whether the status says success (2xx).
  public var succeeded: Bool { Self.isSuccess(status) }

  /// Whether `status` says success (2xx): the one place that says which statuses do.
  public static func isSuccess(_ status: Int) -> Bool { (200..<300).contains(status) }

  /// Creates a response (clients and tests).
  public init(
    status: Int, headers: [String: String] = [:], body: Data, attempts: Int = 1, url: URL? = nil
  ) {
    self.status = status
    self.headers = headers
    self.body = body
    self.attempts = attempts
    self.url = url
  }

  /// `response` as the program sees it: header names in lower case, a header given in two
  /// spellings joined as Foundation joins a repeated one.
  init(_ response: HTTPURLResponse, body: Data) {
    var headers: [String: String] = [:]
    for (name, value) in response.allHeaderFields {
      if let name = name as? String, let value = value as? String {
        headers[name.lowercased()] = headers[name.lowercased()].map { "\($0), \(value)" } ?? value
      }
    }
    self.init(status: response.statusCode, headers: headers, body: body, url: response.url)
  }
}
