import FeedParsing
import Foundation

/// Feed discovery: the feeds a web page announces with
/// `<link rel="alternate" type="application/rss+xml" href="…">` (or Atom, or JSON Feed), in the
/// page's order, resolved against the page's URL (or its `<base href>`).
enum FeedDiscovery {
  /// The feed types a page may announce.
  static let feedTypes = [
    "application/rss+xml", "application/atom+xml", "application/feed+json", "application/json",
    "application/rdf+xml", "text/xml", "application/xml",
  ]

  /// The announced feeds of the HTML `page`, fetched from `url`, with their titles.
  static func announced(in page: Data, url: URL) -> [AnnouncedFeed] {
    // Only the head matters, and a page can be big: the first 512 KiB are enough.
    let text = String(decoding: page.prefix(512 << 10), as: UTF8.self)
    var base = url
    var found: [AnnouncedFeed] = []
    for tag in tags(in: text) {
      let attributes = attributes(of: tag.body)
      switch tag.name {
      case "base":
        if let href = attributes["href"], let resolved = URL(string: href, relativeTo: url) {
          base = resolved.absoluteURL
        }
      case "link":
        let rel = (attributes["rel"] ?? "").lowercased().split(separator: " ")
        let type = (attributes["type"] ?? "").lowercased()
        guard rel.contains("alternate"), feedTypes.contains(type), let href = attributes["href"],
          let resolved = URL.web(href.trimmingCharacters(in: .whitespaces), relativeTo: base),
          !found.contains(where: { $0.url == resolved })
        else { continue }
        let title = attributes["title"]?.trimmingCharacters(in: .whitespacesAndNewlines)
        found.append(AnnouncedFeed(url: resolved, title: title?.isEmpty == false ? title : nil))
      default:
        continue
      }
    }
    return found
  }

  /// The `<link …>` and `<base …>` tags of `text`: name and the text between the name and `>`.
  private static func tags(in text: String) -> [(name: String, body: Substring)] {
    var tags: [(String, Substring)] = []
    var rest = text[...]
    while let open = rest.firstIndex(of: "<") {
      rest = rest[rest.index(after: open)...]
      let name = rest.prefix { $0.isLetter }.lowercased()
      guard name == "link" || name == "base" else { continue }
      guard let close = rest.firstIndex(of: ">") else { break }
      tags.append((name, rest[rest.index(rest.startIndex, offsetBy: name.count)..<close]))
      rest = rest[close...]
    }
    return tags
  }

  /// `rel="alternate" href='x' type=text/xml` → lower-case names and unescaped values.
  static func attributes(of body: Substring) -> [String: String] {
    var attributes: [String: String] = [:]
    var rest = body
    while true {
      rest = rest.drop { $0.isWhitespace || $0 == "/" }
      let name = rest.prefix { !$0.isWhitespace && $0 != "=" && $0 != ">" && $0 != "/" }
      guard !name.isEmpty else { break }
      rest = rest.dropFirst(name.count).drop(while: \.isWhitespace)
      guard rest.first == "=" else {
        attributes[name.lowercased()] = ""
        continue
      }
      rest = rest.dropFirst().drop(while: \.isWhitespace)
      let value: Substring
      if let quote = rest.first, quote == "\"" || quote == "'" {
        let inner = rest.dropFirst()
        value = inner.prefix { $0 != quote }
        rest = inner.dropFirst(value.count + 1)
      } else {
        value = rest.prefix { !$0.isWhitespace }
        rest = rest.dropFirst(value.count)
      }
      attributes[name.lowercased()] = HTMLText.plain(String(value))
    }
    return attributes
  }
}
