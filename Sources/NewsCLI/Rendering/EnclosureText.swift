import FeedParsing
import Foundation
import NewsCore

/// How an enclosure is shown: a line of text, and its JSON.
enum EnclosureText {
  /// `[audio/mpeg · 48.2 MB · 1:02:03] https://…`.
  static func line(_ enclosure: Enclosure) -> String {
    var details: [String] = [enclosure.type ?? "file"]
    if let length = enclosure.length { details.append(size(length)) }
    if let duration = enclosure.duration { details.append(time(duration)) }
    return "[" + details.map { TerminalSanitizer.clean($0) }.joined(separator: " · ") + "] "
      + TerminalSanitizer.clean(enclosure.url)
  }

  /// `{"url","type","length","duration"}` each, `null` where the feed said nothing.
  static func json(_ enclosures: [Enclosure]) -> JSONValue {
    .array(
      enclosures.map { enclosure in
        .object([
          ("url", .string(enclosure.url)), ("type", .string(enclosure.type)),
          ("length", .int(enclosure.length)), ("duration", .int(enclosure.duration)),
        ])
      })
  }

  /// Bytes as `812 KB`, `48.2 MB`, `1.3 GB`.
  static func size(_ bytes: Int) -> String { ByteCount.text(Int64(bytes)) }

  /// Seconds as `42:10` or `1:02:03`.
  static func time(_ seconds: Int) -> String {
    let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
    return hours > 0
      ? String(format: "%d:%02d:%02d", hours, minutes, rest)
      : String(format: "%d:%02d", minutes, rest)
  }
}
