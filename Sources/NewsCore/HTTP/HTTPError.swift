import Foundation

/// A request that got no usable HTTP response.
public enum HTTPError: NewsError, Equatable {
  /// The host could not be reached, or the connection failed, even after the retries.
  case network(host: String, reason: String)
  /// The response body was larger than the program accepts.
  case responseTooLarge(host: String, limit: Int)
  /// The server kept failing (5xx or 429) through every attempt.
  case status(host: String, code: Int)

  public var message: String {
    switch self {
    case .network(let host, let reason):
      return "cannot reach \(host): \(reason)"
    case .responseTooLarge(let host, let limit):
      return "\(host) sent more than \(limit >> 20) MiB; refusing the response"
    case .status(let host, let code):
      return "\(host) answered HTTP \(code) \(HTTPError.reasonPhrase(code))"
    }
  }

  public var exitCode: ExitCode {
    switch self {
    case .responseTooLarge: return .dataError
    case .status(_, 429): return .temporaryFailure
    default: return .unavailable
    }
  }

  static func reasonPhrase(_ code: Int) -> String {
    switch code {
    case 400: return "(bad request)"
    case 401: return "(unauthorized)"
    case 403: return "(forbidden)"
    case 404: return "(not found)"
    case 429: return "(too many requests)"
    case 500: return "(internal server error)"
    case 502: return "(bad gateway)"
    case 503: return "(service unavailable)"
    case 504: return "(gateway timeout)"
    default: return ""
    }
  }
}
