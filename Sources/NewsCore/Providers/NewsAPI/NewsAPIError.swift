/// newsapi.org said no, or said something we could not read.
public enum NewsAPIError: NewsError, Equatable {
  /// An error body with its `code` (matched) and `message` (shown, never matched).
  case api(code: String, message: String?)
  /// An answer that was not the documented JSON.
  case unparseable(status: Int, detail: String)
  /// A failing HTTP status without an error body, after `attempts` attempts.
  case server(status: Int, attempts: Int = 1)

  public var message: String {
    switch self {
    case .api(let code, let message):
      let detail = message.map { ": \($0)" } ?? ""
      switch code {
      case "apiKeyMissing":
        return "newsapi.org got no API key; set NEWSAPI_KEY (see .env.example)"
      case "apiKeyInvalid":
        return "newsapi.org refused the API key as invalid; check NEWSAPI_KEY"
      case "apiKeyDisabled":
        return "newsapi.org says this API key is disabled; check your account"
      case "apiKeyExhausted":
        return "newsapi.org says this API key has no requests left; wait or upgrade the plan"
      case "rateLimited":
        return "newsapi.org rate limit reached; try again later"
      default:
        return "newsapi.org error \(code)\(detail)"
      }
    case .unparseable(let status, let detail):
      return "newsapi.org sent a response that is not the expected JSON (HTTP \(status)): \(detail)"
    case .server(let status, let attempts):
      return
        "newsapi.org answered \(HTTPError.status(status))\(HTTPError.after(attempts))"
    }
  }

  public var exitCode: ExitCode {
    switch self {
    case .api(let code, _):
      switch code {
      case "apiKeyInvalid", "apiKeyMissing", "apiKeyDisabled", "apiKeyExhausted":
        return .permissionDenied
      case "rateLimited":
        return .temporaryFailure
      case "parameterInvalid", "parametersMissing", "parametersIncompatible", "sourcesTooMany",
        "sourceDoesNotExist", "maximumResultsReached":
        return .usage
      default:
        return .unavailable
      }
    case .unparseable: return .dataError
    case .server(let status, _): return status == 429 ? .temporaryFailure : .unavailable
    }
  }

  /// Whether the failure is the service's or the network's (so stored data may stand in for it),
  /// rather than something the user must fix.
  public var isOutage: Bool {
    switch self {
    case .server, .unparseable: return true
    case .api(let code, _): return exitCode == .unavailable || code == "rateLimited"
    }
  }
}
