import FeedParsing
import Foundation
import NewsCore
import Serving

/// `news serve`'s log on standard error: one line a request (time, address, method, path
/// without its query, status, bytes, milliseconds, and what was skipped), and the refreshes.
/// With `quiet`, only what failed.
struct RequestLog: Sendable {
  let context: Context
  let quiet: Bool

  /// Logs one exchange.
  func write(_ exchange: HTTPServer.Exchange) {
    guard !quiet || exchange.status >= 400 else { return }
    context.console.err(Self.line(exchange, at: context.timing.now()) + "\n")
  }

  /// Logs a refresh's outcome.
  func note(_ text: String, failed: Bool) {
    guard !quiet || failed else { return }
    announce(text)
  }

  /// Logs where the server listens, and that it stopped: said even with `quiet` (a script reads
  /// the port from it).
  func announce(_ text: String) {
    context.console.err(ISO8601.string(from: context.timing.now()) + " " + text + "\n")
  }

  /// `2026-11-27T23:40:01Z 127.0.0.1 GET /reader/api/0/tag/list 200 412 B 3 ms`. The path is
  /// the request's without its query (where `api_key` and `T` travel), cleaned of control
  /// characters.
  static func line(_ exchange: HTTPServer.Exchange, at date: Date) -> String {
    let milliseconds =
      exchange.duration.components.seconds * 1_000
      + exchange.duration.components.attoseconds / 1_000_000_000_000_000
    var line =
      "\(ISO8601.string(from: date)) \(exchange.peer.address) \(exchange.method) "
      + "\(TerminalSanitizer.clean(exchange.path)) \(exchange.status) \(exchange.bytes) B "
      + "\(milliseconds) ms"
    if let note = exchange.note { line += " (\(note))" }
    return line
  }
}
