/// A key the reader understands, decoded from the terminal's bytes.
enum Key: Equatable, Sendable {
  case character(Character)
  case up, down, left, right, pageUp, pageDown, home, end
  case enter, escape, backspace, tab, backTab
  /// Ctrl-C when the terminal delivers it as a byte (in raw mode it also arrives as SIGINT).
  case interrupt
  /// Ctrl-Z.
  case suspend
}
