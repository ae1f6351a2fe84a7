/// Why a request cannot be served as sent: each is answered with its status, and the connection
/// closed (what follows on it cannot be trusted to start where a request starts).
public enum HTTPError: Error, Sendable, Equatable {
  /// Malformed: 400.
  case badRequest(String)
  /// The request line and headers over ``HTTPLimits/headBytes`` or ``HTTPLimits/headerCount``:
  /// 431.
  case headTooLarge
  /// The body over ``HTTPLimits/bodyBytes``: 413.
  case bodyTooLarge
  /// A body sent in a way not read here (`Transfer-Encoding`): 501.
  case notImplemented(String)
  /// Not HTTP/1.0 or 1.1: 505.
  case versionNotSupported

  /// The status it is answered with.
  public var status: Int {
    switch self {
    case .badRequest: 400
    case .headTooLarge: 431
    case .bodyTooLarge: 413
    case .notImplemented: 501
    case .versionNotSupported: 505
    }
  }

  /// What is wrong, for the answer's body and the log.
  public var reason: String {
    switch self {
    case .badRequest(let why): why
    case .headTooLarge: "the request line and headers are too large"
    case .bodyTooLarge: "the body is too large"
    case .notImplemented(let what): what
    case .versionNotSupported: "only HTTP/1.0 and HTTP/1.1 are served"
    }
  }
}
