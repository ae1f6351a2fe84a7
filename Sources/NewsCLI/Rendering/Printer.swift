import NewsCore

/// Where a command's renderer writes its output (standard output): text as the renderer built
/// it, or a JSON document. Commands never write text of their own: they hand values to their
/// renderer (`SourcesText`, `AccountsText`, …), and what it makes comes out here (a test holds
/// every write of standard output to this folder).
struct Printer: Sendable {
  /// Writes to standard output.
  var write: @Sendable (String) -> Void

  /// Writes `text` as it is.
  func text(_ text: String) { write(text) }

  /// Writes `line` and a newline.
  func line(_ line: String) { write(line + "\n") }

  /// Writes `lines`, each with its newline.
  func lines(_ lines: [String]) {
    guard !lines.isEmpty else { return }
    write(lines.joined(separator: "\n") + "\n")
  }

  /// Writes `document` indented, and a newline: every command's `--json`.
  func json(_ document: JSONValue) { write(document.serialized(pretty: true, ending: "\n")) }
}
