/// A source's error as a line that names the source already shows it: without the
/// `source a: ` or `source a ` its message begins with (`source a answered HTTP 500` reads
/// `answered HTTP 500` after `a`).
enum SourceMessage {
  static func withoutName(_ message: String, of name: String) -> String {
    for prefix in ["source \(name): ", "source \(name) "] where message.hasPrefix(prefix) {
      return String(message.dropFirst(prefix.count))
    }
    return message
  }
}
