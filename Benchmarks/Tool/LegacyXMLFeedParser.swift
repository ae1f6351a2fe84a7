import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// One entry as the earlier parser read it.
struct LegacyEntry: Equatable {
  var title: String?
  var link: String?
  var summary: String?
  var content: String?
  var author: String?
  var published: String?
  var imageURL: String?
}

/// The feed parser `news` had before its own tokenizer (FoundationXML's `XMLParser`), kept here
/// only so that `news-benchmark parse` can compare the two on the same documents.
///
/// Reads RSS 0.91/0.92/2.0, RSS 1.0 (RDF) and Atom 1.0 with `XMLParser`, streaming: namespaces
/// (`content:encoded`, `dc:creator`, `dc:date`, `media:*`), CDATA, entities, Atom's
/// `rel="alternate"` link (not merely the first), `xml:base` for relative links and
/// `type="html"|"xhtml"|"text"` content.
///
/// No external entity or DTD is ever loaded, and a document declaring entities of its own is
/// refused before parsing (no XXE, no billion laughs): feeds have no use for them.
final class LegacyXMLFeedParser: NSObject, XMLParserDelegate {
  /// What went wrong, for ``FeedError/undecodable(source:detail:)``.
  struct Failure: Error {
    var detail: String
  }

  private var entries: [LegacyEntry] = []
  private var title: String?
  private var current: LegacyEntry?
  private var text = ""
  private var path: [String] = []
  private var bases: [URL?] = []
  private var isAtom = false
  private var sawRoot = false
  private var linkIsAlternate = false

  /// The entries of the feed in `data`.
  static func entries(in data: Data) throws(Failure) -> [LegacyEntry] {
    try document(in: data).entries
  }

  /// The feed's own title and its entries.
  static func document(in data: Data) throws(Failure) -> (
    title: String?, entries: [LegacyEntry]
  ) {
    if declaresEntities(data) {
      throw Failure(detail: "the XML declares entities of its own, which feeds have no use for")
    }
    let delegate = LegacyXMLFeedParser()
    let parser = XMLParser(data: try LegacyXMLEncoding.utf8(data))
    parser.shouldProcessNamespaces = false
    parser.shouldReportNamespacePrefixes = false
    parser.shouldResolveExternalEntities = false
    parser.delegate = delegate
    let parsed = parser.parse()
    guard delegate.sawRoot else { throw Failure(detail: "not an RSS or Atom feed") }
    // A document cut short can end the parse without an error: elements still open say so.
    guard parsed, delegate.path.isEmpty else {
      throw Failure(detail: "not well-formed XML (line \(parser.lineNumber))")
    }
    return (delegate.title, delegate.entries)
  }

  /// Whether the prolog (before the root element) declares entities.
  static func declaresEntities(_ data: Data) -> Bool {
    let prolog = data.prefix(64 << 10)
    guard let doctype = prolog.range(of: Data("<!DOCTYPE".utf8)) else { return false }
    return prolog[doctype.lowerBound...].range(of: Data("<!ENTITY".utf8)) != nil
  }

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    let name = name.lowercased()
    if path.isEmpty {
      guard ["rss", "rdf:rdf", "feed"].contains(name) else {
        parser.abortParsing()
        return
      }
      sawRoot = true
      isAtom = name == "feed"
    }
    let base = attributes["xml:base"].flatMap { URL(string: $0, relativeTo: bases.last ?? nil) }
    bases.append(base ?? bases.last ?? nil)
    path.append(name)
    text = ""
    if name == "item" || name == "entry" {
      current = LegacyEntry()
      return
    }
    guard current != nil else { return }
    switch name {
    case "link" where isAtom:
      let rel = attributes["rel"] ?? "alternate"
      if let href = attributes["href"], rel == "alternate",
        current?.link == nil || !linkIsAlternate
      {
        current?.link = resolve(href)
        linkIsAlternate = attributes["rel"] != nil
      } else if let href = attributes["href"], current?.link == nil {
        current?.link = resolve(href)
      }
    case "enclosure":
      if attributes["type"]?.hasPrefix("image/") == true, current?.imageURL == nil {
        current?.imageURL = attributes["url"]
      }
    case "media:content", "media:thumbnail":
      let isImage =
        attributes["medium"] == "image" || attributes["type"]?.hasPrefix("image/") == true
        || name == "media:thumbnail"
      if isImage, current?.imageURL == nil { current?.imageURL = attributes["url"] }
    default:
      break
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    text += string
  }

  func parser(_ parser: XMLParser, foundCDATA block: Data) {
    text += String(decoding: block, as: UTF8.self)
  }

  func parser(
    _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
  ) {
    let name = name.lowercased()
    defer {
      path.removeLast()
      bases.removeLast()
      text = ""
    }
    if name == "item" || name == "entry", let entry = current {
      entries.append(entry)
      current = nil
      linkIsAlternate = false
      return
    }
    if current == nil, name == "title", path.count >= 2,
      ["channel", "feed"].contains(path[path.count - 2]),
      title == nil
    {
      title = String(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    guard current != nil, path.count >= 2 else { return }
    // Only the entry's own fields, not those of elements nested deeper (Atom's author/name aside).
    let parent = path[path.count - 2]
    let value = String(text.trimmingCharacters(in: .whitespacesAndNewlines))
    guard !value.isEmpty else { return }
    switch (parent, name) {
    case ("item", "title"), ("entry", "title"), ("item", "media:title"):
      if current?.title == nil || name == "title" { current?.title = value }
    case ("item", "link") where !isAtom:
      current?.link = resolve(value)
    case ("item", "guid") where current?.link == nil && value.hasPrefix("http"):
      current?.link = value
    case ("item", "description"), ("entry", "summary"), ("item", "media:description"):
      if current?.summary == nil || name != "media:description" { current?.summary = value }
    case ("item", "content:encoded"), ("entry", "content"):
      current?.content = value
    case ("item", "author"), ("item", "dc:creator"), ("author", "name"):
      if current?.author == nil { current?.author = Self.personName(value) }
    case ("item", "pubdate"), ("item", "dc:date"), ("entry", "published"), ("entry", "updated"):
      if current?.published == nil || name == "published" { current?.published = value }
    default:
      break
    }
  }

  /// `blog@example.com (Andreas Krennmair)` → `Andreas Krennmair`.
  private static func personName(_ text: String) -> String {
    guard let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")"), open < close
    else { return text }
    let name = text[text.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
    return name.isEmpty ? text : name
  }

  private func resolve(_ link: String) -> String {
    guard let base = bases.last ?? nil, URL(string: link)?.scheme == nil,
      let resolved = URL(string: link, relativeTo: base)
    else { return link }
    return resolved.absoluteString
  }
}
