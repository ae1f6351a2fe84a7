import Foundation
import Synchronization

/// A progress line on standard error (`⠋ fetching 3 sources…`), only when it is a terminal, that
/// leaves nothing behind when it stops.
final class Spinner: Sendable {
  private let console: Console
  private let message = Mutex("")
  private let task = Mutex<Task<Void, Never>?>(nil)

  init(console: Console) { self.console = console }

  /// Starts showing `message` (no-op when standard error is not a terminal).
  func start(_ message: String) {
    guard console.stderrIsTerminal else { return }
    self.message.withLock { $0 = message }
    let frames = console.unicode ? Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏").map(String.init) : ["-", "\\", "|", "/"]
    let spinning = Task { [self] in
      var frame = 0
      while !Task.isCancelled {
        let message = self.message.withLock { $0 }
        console.err("\r\u{1B}[K\(frames[frame % frames.count]) \(message)")
        frame += 1
        try? await Task.sleep(for: .milliseconds(80))
      }
    }
    task.withLock { $0 = spinning }
  }

  /// Changes the message.
  func update(_ message: String) {
    self.message.withLock { $0 = message }
  }

  /// Stops and clears the line.
  func stop() async {
    guard let running = task.withLock({ $0 }) else { return }
    running.cancel()
    await running.value
    console.err("\r\u{1B}[K")
  }
}
