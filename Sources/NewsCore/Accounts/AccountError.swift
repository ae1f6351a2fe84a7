import Foundation

/// What goes wrong with an account on the reader's server.
public enum AccountError: NewsError, Equatable {
  /// No account of that name.
  case unknown(String)
  /// An account of that name exists already.
  case exists(String)
  /// Account `existing` is that user on that server already (a second would sync everything
  /// twice).
  case sameServer(existing: String)
  /// The name is not a valid account name.
  case invalidName(String)
  /// No password was given (none typed, an empty file, an unset variable).
  case noPassword(String)
  /// The server refused the user name or password.
  case refused(account: String)
  /// The server answered something the protocol does not allow.
  case wrongShape(account: String, detail: String)
  /// The server answered an error status, with the reason its body gave, if any (Miniflux's
  /// `error_message`, Nextcloud News's `message`).
  case status(account: String, code: Int, reason: String? = nil)
  /// Nothing of the kind's API answers at the address given to `accounts add` (`404`, `405`,
  /// `501` at the first request): a wrong address, or a server of another kind.
  case noAPI(account: String, kind: Account.Kind, url: String, code: Int)
  /// The server could not be reached.
  case unreachable(account: String, reason: String)
  /// The account's protocol cannot do what was asked.
  case unsupported(account: String, detail: String)
  /// The server would not subscribe to `url`: why, as it said; `unreachable` when it could not
  /// download the feed (rather than found no feed there).
  case notSubscribed(account: String, url: String, reason: String, unreachable: Bool)
  /// No account has a source of that name.
  case unknownSource(String)
  /// The server refused the edit token it had just handed out (Google Reader API).
  case badToken(account: String)

  public var message: String {
    switch self {
    case .unknown(let name):
      return "unknown account '\(name)'"
    case .exists(let name):
      return "an account named '\(name)' exists already"
    case .sameServer(let existing):
      return "account '\(existing)' is that user on that server already"
    case .invalidName(let name):
      return "'\(name)' is not a valid account name: use 1 to 32 lower-case letters, digits or '-'"
    case .noPassword(let detail):
      return "no password: \(detail)"
    case .refused(let account):
      return "account \(account): the server refused the user name or password"
    case .wrongShape(let account, let detail):
      return "account \(account): the server's answer is not what its API sends: \(detail)"
    case .status(let account, let code, let reason):
      return "account \(account): the server answered \(HTTPError.status(code))"
        + (reason.map { ": " + $0 } ?? "")
    case .noAPI(let account, let kind, let url, let code):
      return "account \(account): no \(kind.title) API answers at \(url) (it answered "
        + "\(HTTPError.status(code))); the address to give is the \(kind.api)"
    case .unreachable(let account, let reason):
      return "account \(account): \(reason)"
    case .unsupported(let account, let detail):
      return "account \(account): \(detail)"
    case .notSubscribed(let account, let url, let reason, _):
      return "account \(account): not subscribed to \(url): \(reason)"
    case .unknownSource(let name):
      return "no account has a source named '\(name)'"
    case .badToken(let account):
      return "account \(account): the server refused the edit token it had just given "
        + "(X-Reader-Google-Bad-Token, twice); the marks stay queued for the next sync"
    }
  }

  public var advice: Advice? {
    switch self {
    case .unknown: .listAccounts
    case .exists(let name), .sameServer(let name): .removeAccount(name)
    case .refused: .addAccountAgain
    case .unknownSource: .listSources
    default: nil
    }
  }

  public var exitCode: ExitCode {
    switch self {
    case .unknown, .exists, .sameServer, .invalidName, .noPassword, .unsupported, .unknownSource:
      return .usage
    case .refused: return .permissionDenied
    case .wrongShape: return .dataError
    case .notSubscribed(_, _, _, let unreachable): return unreachable ? .unavailable : .dataError
    case .status, .noAPI, .unreachable, .badToken: return .unavailable
    }
  }

  public var isOutage: Bool {
    switch self {
    case .status, .unreachable, .badToken: return true
    default: return false
    }
  }
}
