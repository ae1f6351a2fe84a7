import Synchronization

/// Lines of progress at the bottom of a terminal (standard error), redrawn in place, with
/// finished lines printed above them (standard output): what `news download` shows.
final class ProgressBars: Sendable {
  private let console: Console
  /// How many lines are drawn now (below them is the cursor).
  private let drawn = Mutex(0)

  init(console: Console) { self.console = console }

  /// Replaces the drawn lines with `lines`.
  func draw(_ lines: [String]) {
    drawn.withLock { count in
      var text = erase(count)
      for line in lines { text += "\u{1B}[2K" + line + "\n" }
      console.err(text)
      count = lines.count
    }
  }

  /// Prints `line` on standard output above the bars (they come back at the next draw).
  func print(_ line: String) {
    drawn.withLock { count in
      if count > 0 { console.err(erase(count)) }
      count = 0
      Printer(write: console.out).text(line)
    }
  }

  /// Removes the bars.
  func clear() { draw([]) }

  /// Moves up over `count` lines and erases from there down.
  private func erase(_ count: Int) -> String {
    count > 0 ? "\r\u{1B}[\(count)A\u{1B}[J" : ""
  }
}
