import Foundation

/// A feed source failed, or is declared wrongly.
public enum FeedError: NewsError, Equatable {
  /// The body is not the shape the source's adapter expects.
  case undecodable(source: String, detail: String)
  /// The source answered with an error status, after `attempts` attempts.
  case status(source: String, code: Int, attempts: Int = 1)
  /// The command of an `exec:` or `filter:` source failed (``SourceCommandRunner``).
  case command(source: String, detail: String)
  /// The source's cached items, left in the cache by a sync until its answer needed them, could
  /// not be read then (the entry is untouched: nothing is written without them).
  case cacheUnread(source: String, detail: String)

  public var message: String {
    switch self {
    case .undecodable(let source, let detail):
      return "source \(source) sent something unexpected: \(detail)"
    case .status(let source, let code, let attempts):
      return
        "source \(source) answered \(HTTPError.status(code))\(HTTPError.after(attempts))"
    case .command(let source, let detail):
      return "source \(source): \(detail)"
    case .cacheUnread(let source, let detail):
      return "source \(source): its cached items could not be read again (\(detail))"
    }
  }

  public var exitCode: ExitCode {
    switch self {
    case .undecodable: return .dataError
    case .status, .command: return .unavailable
    case .cacheUnread: return .ioError
    }
  }
}
