/// Stored data was asked for and there is none.
public enum OfflineError: NewsError {
  /// Nothing is stored for the query the headlines would fetch.
  case nothingStored

  public var message: String {
    switch self {
    case .nothingStored:
      return "nothing stored for this query yet"
    }
  }

  public var exitCode: ExitCode { .unavailable }

  public var advice: Advice? { .fetchHeadlinesOnline }
}
