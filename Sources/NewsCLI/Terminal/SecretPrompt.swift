import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Asks for a secret on the terminal without echoing it (as `ssh` asks for a password).
enum SecretPrompt {
  /// Writes `prompt` to standard error and reads one line from standard input with echo off;
  /// `nil` when standard input is not a terminal, or at its end. Ctrl-C (SIGINT), SIGTERM or
  /// SIGHUP while it waits give the terminal its echo back before the program ends (exit 128 +
  /// the signal), as `ssh` and `sudo` do.
  static func read(_ prompt: String) -> String? {
    guard isatty(STDIN_FILENO) == 1 else { return nil }
    let saved = TerminalModes()
    guard saved.read(STDIN_FILENO) else {
      saved.free()
      return nil
    }
    let quiet = saved.copy()
    quiet.record.pointee.c_lflag &= ~tcflag_t(ECHO)
    promptTerminal.set(from: saved)
    promptIsQuiet = true
    let previous = [SIGINT, SIGTERM, SIGHUP].map { ending in
      (
        ending,
        signal(ending) { code in
          restorePromptFromSignal()
          _exit(128 + code)
        }
      )
    }
    quiet.apply(to: STDIN_FILENO)
    // The prompt once echo is off: nothing typed after it is ever shown. A closed or full
    // standard error must not stop the prompt: the answer is still read.
    writeToStandardError(prompt)
    defer {
      saved.apply(to: STDIN_FILENO)
      promptIsQuiet = false
      saved.free()
      quiet.free()
      for (ending, handler) in previous { signal(ending, handler) }
      writeToStandardError("\n")
    }
    return readLine(strippingNewline: true)
  }
}

/// The terminal as it was before the prompt turned echo off (read by signal handlers, so global).
private let promptTerminal = TerminalModes()
nonisolated(unsafe) private var promptIsQuiet = false

/// What a signal handler may do: `tcsetattr(3)` and `write(2)`, both async-signal-safe.
private func restorePromptFromSignal() {
  guard promptIsQuiet else { return }
  promptTerminal.apply(to: STDIN_FILENO)
  let newline: [UInt8] = [10]
  newline.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, 1) }
}

/// Writes `text` to standard error for the prompt; a closed or full stream is no failure of
/// the prompt (the answer is read all the same, and a failure to use it is reported then).
private func writeToStandardError(_ text: String) {
  do {
    try FileHandle.standardError.write(contentsOf: Data(text.utf8))
  } catch {
    return
  }
}
