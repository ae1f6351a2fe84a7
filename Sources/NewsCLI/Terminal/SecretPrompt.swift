import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Asks for a secret on the terminal without echoing it (as `ssh` asks for a password).
enum SecretPrompt {
  /// Writes `prompt` to standard error and reads one line from standard input with echo off;
  /// `nil` when standard input is not a terminal, or at its end.
  static func read(_ prompt: String) -> String? {
    guard isatty(STDIN_FILENO) == 1 else { return nil }
    var saved = termios()
    guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
    var quiet = saved
    quiet.c_lflag &= ~tcflag_t(ECHO)
    // A closed or full standard error must not stop the prompt: the answer is still read.
    try? FileHandle.standardError.write(contentsOf: Data(prompt.utf8))
    _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
    defer {
      _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
      try? FileHandle.standardError.write(contentsOf: Data("\n".utf8))
    }
    return readLine(strippingNewline: true)
  }
}
