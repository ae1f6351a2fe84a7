/// A process exit status, following the BSD `sysexits.h` conventions that scripts already know.
public struct ExitCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The numeric status handed to `exit(3)`.
  public let rawValue: Int32

  /// Creates an exit code from its numeric value.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// Success.
  public static let success = ExitCode(rawValue: 0)
  /// The command line was wrong: unknown option, bad value, missing argument (EX_USAGE).
  public static let usage = ExitCode(rawValue: 64)
  /// A server answered with a body we could not understand (EX_DATAERR).
  public static let dataError = ExitCode(rawValue: 65)
  /// A service could not be reached or failed after every retry (EX_UNAVAILABLE).
  public static let unavailable = ExitCode(rawValue: 69)
  /// An internal error: a bug in the program (EX_SOFTWARE).
  public static let internalError = ExitCode(rawValue: 70)
  /// A local file could not be read or written, or failed to decrypt (EX_IOERR).
  public static let ioError = ExitCode(rawValue: 74)
  /// A temporary failure: rate limited, or partly done; trying later may work (EX_TEMPFAIL).
  public static let temporaryFailure = ExitCode(rawValue: 75)
  /// The API key was refused (EX_NOPERM).
  public static let permissionDenied = ExitCode(rawValue: 77)
  /// The configuration is missing or invalid (EX_CONFIG).
  public static let configuration = ExitCode(rawValue: 78)
  /// Interrupted by Ctrl-C (128 + SIGINT).
  public static let interrupted = ExitCode(rawValue: 130)

  public var description: String { String(rawValue) }

  /// Every exit code the program uses, in order: the manual's table is made from this list.
  public static let all: [ExitCode] = [
    .success, .usage, .dataError, .unavailable, .internalError, .ioError, .temporaryFailure,
    .permissionDenied, .configuration, .interrupted,
  ]

  /// What the code means, in one sentence for the manual.
  public var meaning: String {
    switch rawValue {
    case 0: return "Success."
    case 64:
      return "Usage error: unknown option or command, bad value, unknown or ambiguous article id."
    case 65:
      return
        "A server sent a body that is not the expected JSON, has no usable item, or is over 10 MiB."
    case 69:
      return
        "A service is unavailable: unreachable, failing after every retry or past its deadline, with nothing stored to show instead."
    case 70: return "An internal error (a bug)."
    case 74:
      return
        "A stored file cannot be read or written (wrong key, corruption, tampering), or standard output cannot be written."
    case 75:
      return
        "Temporary failure: rate limited, some sources failed to sync, a sync is running, or a download was interrupted (run again to resume)."
    case 77: return "The API key, or an account's user name or password, was refused."
    case 78:
      return "Configuration error: missing key, invalid variable, malformed .env or config.json."
    case 130: return "Interrupted (Ctrl-C)."
    default: return "Exit code \(rawValue)."
    }
  }
}
