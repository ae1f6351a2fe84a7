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
}
