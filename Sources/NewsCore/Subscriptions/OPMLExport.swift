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
    // Readers file feeds by the folders (outlines) they are in, few read `category`: each feed
    // goes in the folder of its first tag, and `category` names all its tags (an export
    // imports here with every tag). Feeds without a tag come first, outside any folder.
    var folders: [String: [FeedSource]] = [:]
    var order: [String] = []
    for source in sources {
      guard let folder = source.tags.first else {
        text += outline(source, indent: "    ")
        continue
      }
      if folders[folder] == nil { order.append(folder) }
      folders[folder, default: []].append(source)
    }
    for folder in order {
      text += "    <outline text=\"\(escape(folder))\" title=\"\(escape(folder))\">\n"
      for source in folders[folder] ?? [] { text += outline(source, indent: "      ") }
      text += "    </outline>\n"
    }
    return text + "  </body>\n</opml>\n"
  }

  /// One feed's outline, on a line of its own.
  private static func outline(_ source: FeedSource, indent: String) -> String {
    // The feed's title where it is known (readers show it), else the name.
    let name = escape(source.displayTitle)
    let url = escape(source.url.withoutPassword.absoluteString)
    let site = source.site.map { " htmlUrl=\"\(escape($0.absoluteString))\"" } ?? ""
    let tags =
      source.tags.isEmpty ? "" : " category=\"\(escape(source.tags.joined(separator: ",")))\""
    return indent
      + "<outline type=\"rss\" text=\"\(name)\" title=\"\(name)\" xmlUrl=\"\(url)\"\(site)\(tags)/>\n"
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
