import Foundation

/// A request that got no usable HTTP response.
public enum HTTPError: NewsError, Equatable {
  /// The host could not be reached, or the connection failed, even after the retries.
  case network(host: String, reason: String, attempts: Int = 1)
  /// The response body was larger than the program accepts.
  case responseTooLarge(host: String, limit: Int)
  /// The server redirected the request somewhere the ``RedirectPolicy`` does not follow.
  case redirectRefused(from: String, to: String, reason: String)
  /// The server redirected the request more times than are followed: a loop, most likely.
  case redirectLoop(host: String)

  public var message: String {
    switch self {
    case .network(let host, let reason, let attempts):
      return "cannot reach \(host): \(reason)\(Self.after(attempts))"
    case .responseTooLarge(let host, let limit):
      let size = limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit) bytes"
      return "\(host) sent more than \(size); refusing the response"
    case .redirectRefused(let from, let to, let reason):
      return "\(from) redirected to \(to); not followed because \(reason)"
    case .redirectLoop(let host):
      return "\(host) redirected too many times (a redirect loop)"
    }
  }

  /// The network or the server failed: stored data may stand in.
  public var isOutage: Bool { true }

  /// Whether the server could not be reached at all: the connection refused, its name not
  /// found, no network. Its other addresses will not answer either, this minute.
  public var isUnreachable: Bool {
    guard case .network(_, let reason, _) = self else { return false }
    return HTTPTransport.unreachableReasons.contains(reason)
  }

  public var exitCode: ExitCode {
    switch self {
    case .responseTooLarge: return .dataError
    case .network, .redirectRefused, .redirectLoop: return .unavailable
    }
  }

  /// ` after 4 attempts`, or nothing for a single attempt.
  static func after(_ attempts: Int) -> String {
    attempts > 1 ? " after \(attempts) attempts" : ""
  }

  /// `HTTP 404 (not found)`: the status with its reason where it is a common one (no space
  /// left dangling after a code that has none).
  static func status(_ code: Int) -> String {
    let phrase: String? =
      switch code {
      case 400: "bad request"
      case 401: "unauthorized"
      case 403: "forbidden"
      case 404: "not found"
      case 405: "method not allowed"
      case 406: "not acceptable"
      case 408: "request timeout"
      case 410: "gone: removed for good"
      case 429: "too many requests"
      case 451: "unavailable for legal reasons"
      case 500: "internal server error"
      case 502: "bad gateway"
      case 503: "service unavailable"
      case 504: "gateway timeout"
      default: nil
      }
    return "HTTP \(code)" + (phrase.map { " (\($0))" } ?? "")
  }
}
