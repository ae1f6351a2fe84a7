import Foundation
import NewsCore

/// An article as the apps see it: its number (``NewsCore/ArticleStore/itemNumbers(for:pruning:)``),
/// its feed, when it was published and when it came (what streams are sorted and filtered by:
/// an app asking what came since its last sync gets an item published long ago but fetched now).
struct ServedItem: Sendable {
  /// Its number: stable, and greater for later articles.
  var number: Int64
  /// The article's id, source and publication (its text is read for the page that shows it:
  /// ``ServedRequest/articles(of:)``).
  var head: ArticleHead
  /// Its publication time in seconds (when it came, if it has none).
  var time: Double
  /// When it was first seen, in seconds (its publication time when that is not kept).
  var crawled: Double

  /// The article's id.
  var id: String { head.id }

  /// The feed it belongs to (its source's name).
  var feed: String { head.provider }

  /// `tag:google.com,2005:reader/item/<16 hex digits>`, the Google Reader API's long form.
  var longID: String {
    let hex = String(UInt64(number), radix: 16)
    return "tag:google.com,2005:reader/item/" + String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// When it came, in microseconds, as the Google Reader API writes times.
  var microseconds: Int64 { Self.microseconds(crawled) }

  /// `seconds` in microseconds, as the Google Reader API writes times.
  static func microseconds(_ seconds: Double) -> Int64 { Int64(seconds * 1_000_000) }

  /// A number from either of the Google Reader API's forms (`tag:google.com,2005:reader/item/1f`
  /// or `31`); `nil` for anything else.
  static func number(_ id: String) -> Int64? {
    if id.hasPrefix("tag:google.com,2005:reader/item/") {
      return UInt64(id.dropFirst("tag:google.com,2005:reader/item/".count), radix: 16)
        .flatMap { Int64(exactly: $0) }
    }
    return Int64(id).flatMap { $0 >= 0 ? $0 : nil }
  }
}
