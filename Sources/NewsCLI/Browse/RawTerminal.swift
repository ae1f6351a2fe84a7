import Foundation
import NewsCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal as `news browse` uses it: raw input (no echo, no line editing, keys as bytes, Ctrl-C
/// and Ctrl-Z as bytes too), the alternate screen, no cursor, no autowrap. ``restore()`` puts
/// everything back; so do SIGTERM, SIGINT from elsewhere, SIGHUP and the crash signals, through
/// handlers that only use async-signal-safe calls.
enum RawTerminal {
  private static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[H\u{1B}[2J"
  /// Attributes off, autowrap and cursor back, main screen back.
  static let leaveSequence = "\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"

  /// Switches to raw mode and the alternate screen; `false` when standard input is no terminal.
  static func enter() -> Bool {
    guard savedTerminal.read(STDIN_FILENO), makeRaw() else { return false }
    // Globals are initialised on first use, which a signal handler must not be the one to do.
    precondition(!leaveBytes.isEmpty)
    installSignalHandlers()
    write(enterSequence)
    return true
  }

  /// Back to how the terminal was (idempotent).
  static func restore() {
    guard terminalIsRaw else { return }
    // Modes first, then the screen: once the main screen is back, the terminal is as it was.
    savedTerminal.apply(to: STDIN_FILENO)
    write(leaveSequence)
    terminalIsRaw = false
  }

  /// Raw again after a suspension or a program that used the terminal (a browser).
  static func reenter() {
    _ = makeRaw()
    write(enterSequence)
  }

  /// The saved modes without echo, line editing and signal keys, a byte at a time.
  private static func makeRaw() -> Bool {
    let raw = savedTerminal.copy()
    defer { raw.free() }
    raw.record.pointee.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
    raw.record.pointee.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR)
    withUnsafeMutableBytes(of: &raw.record.pointee.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    guard raw.apply(to: STDIN_FILENO) else { return false }
    terminalIsRaw = true
    return true
  }

  /// Ctrl-Z: the terminal back, the process stopped; on `fg` (SIGCONT), raw again.
  ///
  /// SIGSTOP rather than SIGTSTP: a shell sees the same stopped job, and SIGTSTP's stop is
  /// discarded for a process group without a parent in the session (an orphaned group).
  static func suspend() {
    restore()
    raise(SIGSTOP)
    reenter()
  }

  /// The terminal's size in columns and rows.
  static func size() -> (width: Int, height: Int) {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0
    else { return (80, 24) }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  static func write(_ text: String) {
    var text = text
    text.withUTF8 { _ = FileDescriptor.writeAll(STDOUT_FILENO, UnsafeRawBufferPointer($0)) }
  }

  private static func installSignalHandlers() {
    // Ends that leave the terminal as it was before exiting with 128 + the signal.
    for ending in [SIGTERM, SIGINT, SIGHUP] {
      signal(ending) { code in
        restoreFromSignal()
        _exit(128 + code)
      }
    }
    // A crash restores the terminal, then dies of the same signal.
    for crash in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
      signal(crash) { code in
        restoreFromSignal()
        signal(code, SIG_DFL)
        raise(code)
      }
    }
  }
}

/// The terminal as it was before raw mode (read by signal handlers, so global; allocated for the
/// record, see ``TerminalModes``).
private let savedTerminal = TerminalModes()
nonisolated(unsafe) private var terminalIsRaw = false
private let leaveBytes = Array(RawTerminal.leaveSequence.utf8)

/// What a signal handler may do: `write(2)` and `tcsetattr(3)`, both async-signal-safe.
private func restoreFromSignal() {
  guard terminalIsRaw else { return }
  savedTerminal.apply(to: STDIN_FILENO)
  leaveBytes.withUnsafeBytes { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}
