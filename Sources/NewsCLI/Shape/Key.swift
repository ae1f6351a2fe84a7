/// A key the reader understands, decoded from the terminal's bytes.
enum Key: Hashable, Sendable {
  case character(Character)
  case up, down, left, right, pageUp, pageDown, home, end, insert, delete
  case enter, escape, backspace, tab, backTab
  /// Ctrl and a letter (`C-d`: `control("d")`), other than those with keys of their own (Tab is
  /// C-i, Enter C-m and C-j, Backspace C-h, and C-c and C-z below).
  case control(Character)
  /// F1 to F12.
  case function(Int)
  /// Ctrl-C when the terminal delivers it as a byte (in raw mode it also arrives as SIGINT).
  case interrupt
  /// Ctrl-Z.
  case suspend
}
