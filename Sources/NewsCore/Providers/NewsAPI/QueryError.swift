/// A request that cannot be sent as asked.
public enum QueryError: NewsError, Equatable {
  /// The message says which option is wrong and what it accepts.
  case invalid(String)

  public var message: String {
    switch self {
    case .invalid(let message): return message
    }
  }

  public var exitCode: ExitCode { .usage }
}
