import Foundation
import NewsCore
import Synchronization

/// A progress line on standard error (`⠋ fetching 3 sources…`), drawn through the
/// ``StatusLine`` (so only where that draws), that leaves nothing behind when it stops.
final class Spinner: Sendable {
  private let line: StatusLine
  private let unicode: Bool
  private let message = Mutex("")
  private let task = Mutex<Task<Void, Never>?>(nil)

  private let pause: Sleeper

  /// A spinner drawn on `line`, waiting `pause` between frames (the context's timing).
  init(line: StatusLine, unicode: Bool, pause: @escaping Sleeper) {
    self.line = line
    self.unicode = unicode
    self.pause = pause
  }

  /// Starts showing `message` (no-op when the status line is not drawn).
  func start(_ message: String) {
    guard line.isEnabled else { return }
    self.message.withLock { $0 = message }
    let frames = unicode ? Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏").map(String.init) : ["-", "\\", "|", "/"]
    let spinning = Task { [self] in
      var frame = 0
      while !Task.isCancelled {
        let message = self.message.withLock { $0 }
        line.setSpinner("\(frames[frame % frames.count]) \(message)")
        frame += 1
        do {
          try await pause(.milliseconds(80))
        } catch {
          break  // Cancelled: the spinner stops.
        }
      }
    }
    task.withLock { $0 = spinning }
  }

  /// Changes the message.
  func update(_ message: String) {
    self.message.withLock { $0 = message }
  }

  /// Stops and clears its part of the line.
  func stop() async {
    guard let running = task.withLock({ $0 }) else { return }
    running.cancel()
    await running.value
    line.setSpinner(nil)
  }
}
