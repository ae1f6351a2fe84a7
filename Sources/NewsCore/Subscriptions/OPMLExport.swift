import FeedParsing
import Foundation

/// The web feeds as OPML 2.0, which newsboat (`newsboat -i`) and other readers import.
enum OPMLExport {
  static func document(_ sources: [FeedSource], now: Date) -> String {
    var text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <opml version="2.0">
        <head>
          <title>news subscriptions</title>
          <dateCreated>\(rfc822(now))</dateCreated>
        </head>
        <body>

      """
    for source in sources {
      // The feed's title where it is known (readers show it), else the name.
      let name = escape(source.displayTitle)
      let tagAttribute =
        source.tags.isEmpty ? "" : " category=\"\(escape(source.tags.joined(separator: ",")))\""
      text +=
        "    <outline type=\"rss\" text=\"\(name)\" title=\"\(name)\" xmlUrl=\"\(escape(source.url.withoutPassword.absoluteString))\"\(tagAttribute)/>\n"
    }
    return text + "  </body>\n</opml>\n"
  }

  /// `Mon, 23 Nov 2026 13:00:00 GMT`.
  private static func rfc822(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
  }

  private static func escape(_ text: String) -> String {
    XMLEscaping.escaped(text, quotes: true)
  }
}
