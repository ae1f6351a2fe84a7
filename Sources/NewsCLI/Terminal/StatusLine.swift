import Synchronization

/// The one transient line on standard error: the feed's spinner and "retrying …" notices. It is
/// drawn only on a terminal that takes styles (not in a pipe, not with `NO_COLOR` or `TERM=dumb`)
/// and leaves nothing behind when it is cleared.
final class StatusLine: Sendable {
  private struct State {
    var enabled = false
    var spinner: String?
    var notices: [String: String] = [:]
    var drawn = false
  }

  private let console: Console
  private let state = Mutex(State())

  init(console: Console) { self.console = console }

  /// Whether anything is drawn at all.
  var isEnabled: Bool { state.withLock { $0.enabled } }

  /// Switches drawing on or off (once the configuration says whether `NO_COLOR` is set).
  func enable(_ enabled: Bool) {
    state.withLock { $0.enabled = enabled }
  }

  /// Shows `text` as the spinner's part of the line; `nil` removes it.
  func setSpinner(_ text: String?) {
    redraw { $0.spinner = text }
  }

  /// Shows (or, with `nil`, removes) the notice of `key` (one per host).
  func setNotice(_ text: String?, for key: String) {
    redraw { $0.notices[key] = text }
  }

  private func redraw(_ change: (inout State) -> Void) {
    let line: String? = state.withLock { state in
      change(&state)
      guard state.enabled else { return nil }
      let parts =
        [state.spinner].compactMap { $0 }
        + state.notices.keys.sorted().compactMap {
          state.notices[$0]
        }
      if parts.isEmpty {
        guard state.drawn else { return nil }
        state.drawn = false
        return "\r\u{1B}[K"
      }
      state.drawn = true
      return "\r\u{1B}[K" + parts.joined(separator: " · ")
    }
    if let line { console.err(line) }
  }
}
