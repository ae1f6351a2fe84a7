import FeedParsing
import Foundation
import NewsCore

/// An item as the Google Reader API writes it (FreshRSS's and Miniflux's shape): its long id,
/// times, title, links (`canonical` and `alternate`), states and labels as `categories`, its
/// feed as `origin`, its text as `summary`, its files (a podcast's episode) as `enclosure`.
enum ReaderItem {
  static func json(
    _ item: ServedItem, _ article: Article, _ served: ServedRequest, enclosures: [Enclosure] = []
  ) -> JSONValue {
    var categories = [ReaderStream.readingList.id]
    if served.marks.isRead(item) { categories.append(ReaderStream.read.id) }
    if served.marks.isStarred(item) { categories.append(ReaderStream.starred.id) }
    let feed = served.library.feed(named: item.feed)
    categories += (feed?.labels ?? []).map { ReaderStream.label($0).id }
    let seconds = Int(item.time)
    let links: JSONValue =
      article.url.map { .array([.object([("href", .string($0))])]) } ?? .array([])
    let alternate: JSONValue =
      article.url.map {
        .array([.object([("href", .string($0)), ("type", .string("text/html"))])])
      } ?? .array([])
    var members: [(String, JSONValue)] = [
      ("id", .string(item.longID)),
      ("crawlTimeMsec", .string(String(item.microseconds / 1_000))),
      ("timestampUsec", .string(String(item.microseconds))),
      ("published", .int(seconds)), ("updated", .int(seconds)),
      ("title", .string(article.title)),
      ("author", .string(article.author ?? "")),
      ("canonical", links), ("alternate", alternate),
      ("categories", .array(categories.map(JSONValue.string))),
      (
        "origin",
        .object([
          ("streamId", .string("feed/" + item.feed)), ("title", .string(feed?.title ?? item.feed)),
          ("htmlUrl", .string(feed?.page ?? "")),
        ])
      ),
      (
        "summary",
        .object([
          ("direction", .string("ltr")),
          ("content", .string(html(article))),
        ])
      ),
    ]
    if !enclosures.isEmpty {
      // As FreshRSS writes them: `href`, `type`, and `length` when known.
      members.append(
        (
          "enclosure",
          .array(
            enclosures.map { enclosure in
              var file: [(String, JSONValue)] = [
                ("href", .string(enclosure.url)), ("type", .string(enclosure.type ?? "")),
              ]
              if let length = enclosure.length { file.append(("length", .int(length))) }
              return .object(file)
            })
        ))
    }
    return .object(members)
  }

  /// The article's text as the apps show it, HTML: the store keeps text (a feed's HTML made
  /// text), so each paragraph is one `<p>`, its characters escaped (a `<` in the text is shown,
  /// never read as markup). The links the text numbers (`story[1]`, listed under `Links:`) are
  /// links again, to tap: each mark; the list follows only when a link has no mark to tap (one
  /// not a web link, or a mark the text lost), each address of it a link too.
  static func html(_ article: Article) -> String {
    let text = article.content ?? article.description ?? ""
    let links = HTMLText.links(in: text)
    var body = Substring(text)
    if !links.isEmpty, let list = text.lastRange(ofBytes: "\n\nLinks:\n") {
      body = text[..<list.lowerBound]
    }
    // Only web links become anchors: a text saying `[1] javascript:…` stays text.
    let targets = links.map { URL.web($0) != nil ? XMLEscaping.escaped($0, quotes: true) : nil }
    var html = ""
    for paragraph in paragraphs(body) {
      html += "<p>"
      html += linkingMarks(escapedWithBreaks(paragraph), targets)
      html += "</p>"
    }
    let marked = Set(LinkMark.marks(in: body).map(\.number))
    let everyLinkTapped =
      targets.allSatisfy { $0 != nil } && links.indices.allSatisfy { marked.contains($0 + 1) }
    if body.endIndex != text.endIndex, !everyLinkTapped {
      html += "<p>Links:"
      for (index, link) in links.enumerated() {
        let shown = XMLEscaping.escaped(link, quotes: false)
        html +=
          "<br>[\(index + 1)] " + (targets[index].map { "<a href=\"\($0)\">\(shown)</a>" } ?? shown)
      }
      html += "</p>"
    }
    return html
  }

  /// The paragraphs of `text`: its parts between blank lines (`\n\n`), trimmed of white
  /// space, the empty ones left out. Split by bytes: Foundation's `components(separatedBy:)`
  /// and trimming go through NSString (with the search for the links, a quarter of the answer
  /// for a page of articles).
  static func paragraphs(_ text: Substring) -> [Substring] {
    var paragraphs: [Substring] = []
    let bytes = text.utf8
    var start = bytes.startIndex
    var index = start
    func add(_ end: String.Index) {
      let paragraph = text[start..<end].trimmingWhitespace()
      if !paragraph.isEmpty { paragraphs.append(paragraph) }
    }
    while let newline = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) {
      let next = bytes.index(after: newline)
      guard next < bytes.endIndex, bytes[next] == UInt8(ascii: "\n") else {
        index = next
        continue
      }
      add(newline)
      start = bytes.index(after: next)
      index = start
    }
    add(bytes.endIndex)
    return paragraphs
  }

  /// `text` escaped for HTML (``XMLEscaping/escaped(_:quotes:)``), each line break a `<br>`.
  static func escapedWithBreaks(_ text: Substring) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count + 16)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "&"): out += "&amp;".utf8
      case UInt8(ascii: "<"): out += "&lt;".utf8
      case UInt8(ascii: ">"): out += "&gt;".utf8
      case UInt8(ascii: "\n"): out += "<br>".utf8
      case UInt8(ascii: "\t"), UInt8(ascii: "\r"): out.append(byte)
      default: if byte >= 0x20 { out.append(byte) }
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// `escaped` (a paragraph made HTML) with each mark `[n]` of a link whose target (an
  /// attribute's value, escaped) is among `targets` an anchor to it.
  private static func linkingMarks(_ escaped: String, _ targets: [String?]) -> String {
    guard !targets.isEmpty, escaped.contains("[") else { return escaped }
    var out = ""
    var start = escaped.startIndex
    for mark in LinkMark.marks(in: escaped[...]) where mark.number <= targets.count {
      guard let target = targets[mark.number - 1] else { continue }
      out += escaped[start..<mark.range.lowerBound]
      out += "<a href=\"\(target)\">\(escaped[mark.range])</a>"
      start = mark.range.upperBound
    }
    return out + escaped[start...]
  }

}
