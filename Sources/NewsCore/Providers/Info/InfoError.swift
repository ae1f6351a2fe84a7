import Foundation

/// A likes or comments count that could not be had.
public enum InfoError: NewsError, Equatable {
  /// The service answered with an error status.
  case status(kind: String, code: Int)
  /// The service answered something that is not a count.
  case unparseable(kind: String)
  /// The service could not be reached.
  case unreachable(kind: String, reason: String)

  public var message: String {
    switch self {
    case .status(let kind, let code):
      return "\(kind) unavailable: the info API answered \(HTTPError.status(code))"
    case .unparseable(let kind):
      return "\(kind) unavailable: the info API sent something that is not a count"
    case .unreachable(let kind, let reason): return "\(kind) unavailable: \(reason)"
    }
  }

  public var exitCode: ExitCode { .unavailable }
}
