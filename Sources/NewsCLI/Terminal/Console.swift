import Foundation

/// Where the program's output goes and what kind of terminal it is going to.
///
/// Built at the edge (``Console/live(environment:)``) and passed in, so that commands can be run
/// and their output read in tests.
public struct Console: Sendable {
  /// Writes to standard output.
  public var out: @Sendable (String) -> Void
  /// Writes to standard error.
  public var err: @Sendable (String) -> Void
  /// Whether standard output is a terminal (styles and colour are only used then).
  public var stdoutIsTerminal: Bool
  /// Whether standard error is a terminal (spinners are only shown then).
  public var stderrIsTerminal: Bool
  /// Columns to wrap text to.
  public var width: Int
  /// Whether the terminal shows UTF-8 (otherwise symbols are spelt out).
  public var unicode: Bool
  /// Why writing to standard output failed (a full disk, a closed file), if it did.
  public var writeFailure: @Sendable () -> String? = { nil }

  /// Creates a console.
  public init(
    out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
    stdoutIsTerminal: Bool = false, stderrIsTerminal: Bool = false, width: Int = 80,
    unicode: Bool = true
  ) {
    self.out = out
    self.err = err
    self.stdoutIsTerminal = stdoutIsTerminal
    self.stderrIsTerminal = stderrIsTerminal
    self.width = width
    self.unicode = unicode
  }

  /// The width of a pipe without `COLUMNS`: wide enough that nothing is wrapped.
  static let unwrapped = 1_000_000

  /// The process's own standard output and error.
  public static func live(environment: [String: String]) -> Console {
    let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
    // In a pipe nothing is wrapped unless COLUMNS (environment or .env: the configuration's)
    // says a width: a pager or a script gets each paragraph on one line, links whole.
    var width = Self.unwrapped
    if stdoutIsTerminal {
      // The terminal's own width.
      var size = winsize()
      width = 80
      if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
        width = Int(size.ws_col)
      }
      width = min(max(width, 20), 200)
    }
    let locale = environment["LC_ALL"] ?? environment["LC_CTYPE"] ?? environment["LANG"] ?? ""
    let unicode = locale.lowercased().contains("utf-8") || locale.lowercased().contains("utf8")
    let standardOutput = OutputStream(descriptor: STDOUT_FILENO)
    let standardError = OutputStream(descriptor: STDERR_FILENO)
    var console = Console(
      out: { text in standardOutput.write(text) }, err: { text in standardError.write(text) },
      stdoutIsTerminal: stdoutIsTerminal, stderrIsTerminal: isatty(STDERR_FILENO) == 1,
      width: width, unicode: unicode)
    console.writeFailure = { standardOutput.failed }
    return console
  }
}
