/// Stored data was asked for and there is none.
public enum OfflineError: NewsError {
  /// Nothing is stored for the query `command` would fetch.
  case nothingStored(command: String)

  public var message: String {
    switch self {
    case .nothingStored(let command):
      return "nothing stored for this query yet; run '\(command)' online (or 'news sync') first"
    }
  }

  public var exitCode: ExitCode { .unavailable }
}
