import Foundation

/// Writes the article's elements as simple HTML that ``HTMLText/content(_:base:)`` renders:
/// paragraphs, headings, lists, quotes, preformatted blocks, definition lists kept; tables as a
/// paragraph a row (`cell | cell`); figures as their image and caption; images with their alt
/// text (lazy ones by `data-src`); links made absolute; every other tag dropped, its text kept.
enum ArticleSerializer {
  static let kept: Set<String> = [
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "pre", "dl", "dt",
    "dd", "br", "hr", "div", "section", "article", "figcaption",
  ]

  /// The HTML of `elements`, the words of its text (counted as it is written) and its first
  /// paragraph's text.
  static func html(_ elements: [HTMLElement], base: URL?) -> (
    html: String, words: Int, lead: String?
  ) {
    var out = ""
    var writer = Writer(base: base)
    for element in elements { writer.write(.element(element), into: &out) }
    return (out, writer.words, writer.lead)
  }

  static func escape(_ text: String) -> String {
    guard
      text.utf8.contains(where: {
        $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">")
          || $0 == UInt8(ascii: "\"")
      })
    else { return text }
    var escaped: [UInt8] = []
    escaped.reserveCapacity(text.utf8.count + 16)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "&"): escaped += Array("&amp;".utf8)
      case UInt8(ascii: "<"): escaped += Array("&lt;".utf8)
      case UInt8(ascii: ">"): escaped += Array("&gt;".utf8)
      case UInt8(ascii: "\""): escaped += Array("&quot;".utf8)
      default: escaped.append(byte)
      }
    }
    return String(decoding: escaped, as: UTF8.self)
  }

  /// `text` without the ASCII spaces at its ends (most have none: returned as they are).
  static func trimmed(_ text: String) -> String {
    let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    guard let first = text.utf8.first, let last = text.utf8.last, isSpace(first) || isSpace(last)
    else { return text }
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The address an image shows: a lazy loader's attribute first, then `src` (not a `data:`
  /// placeholder), then the first of `srcset`.
  static func imageSource(_ image: HTMLElement) -> String? {
    for name in ["data-src", "data-lazy-src", "data-original", "data-url", "src"] {
      if let value = image[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty,
        !value.hasPrefix("data:")
      {
        return value
      }
    }
    for name in ["data-srcset", "srcset"] {
      if let first = image[name]?.split(separator: ",").first?.split(separator: " ").first {
        return String(first)
      }
    }
    return nil
  }

  /// Writes one article: relative links resolved once each.
  struct Writer {
    let base: URL?
    var resolved: [String: String] = [:]
    /// Words written so far.
    var words = 0
    /// The text of the first paragraph written.
    var lead: String?

    init(base: URL?) { self.base = base }

    mutating func resolve(_ reference: String) -> String {
      if let known = resolved[reference] { return known }
      let absolute = FeedLinks.resolve(reference, against: base)
      resolved[reference] = absolute
      return absolute
    }

    mutating func write(_ node: HTMLNode, into out: inout String) {
      switch node {
      case .text(let text):
        words += ArticleExtractor.wordCount(text)
        out += escape(text)
      case .element(let element):
        if lead == nil, element.name == "p", element.length > 0 { lead = element.text }
        switch element.name {
        case "pre":
          // Preformatted text as it is: its lines and spaces. Its words count: a mailing
          // list's archive holds the whole message in one `<pre>`.
          let text = preformatted(element)
          words += ArticleExtractor.wordCount(text)
          out += "<pre>" + escape(text) + "</pre>\n"
        case "math":
          // A formula as its text form when it declares one (`alttext`), else its symbols in
          // order; never dropped.
          if let text = element["alttext"]?.trimmingCharacters(in: .whitespacesAndNewlines),
            !text.isEmpty
          {
            words += ArticleExtractor.wordCount(text)
            out += escape(text)
          } else {
            for child in element.children { write(child, into: &out) }
          }
        case "img":
          guard let source = imageSource(element) else { return }
          let resolved = resolve(source)
          let alt = element["alt"].map { " alt=\"\(escape($0))\"" } ?? ""
          out += "<img src=\"\(escape(resolved))\"\(alt)>"
        case "a":
          let raw = ArticleSerializer.trimmed(element["href"] ?? "")
          let length = element.length
          // A permalink mark (`¶`, `#`) is no text; an in-page link (`#cite_note-1`) and a link
          // around nothing but an image are no links.
          if raw.hasPrefix("#"), length <= 4, ["¶", "#", "§", "🔗", ""].contains(element.text) {
            return
          }
          let href = raw.hasPrefix("#") || length == 0 ? nil : resolve(raw)
          if let href, FeedLinks.isWebLink(href) {
            out += "<a href=\"\(escape(href))\">"
            for child in element.children { write(child, into: &out) }
            out += "</a>"
          } else {
            for child in element.children { write(child, into: &out) }
          }
        case "table":
          // A row a line, its cells between bars; the table one paragraph.
          out += "<p>"
          var first = true
          for row in element.all(["tr"]) where !hasNestedTable(row, under: element) {
            let cells = row.elements.filter { $0.name == "td" || $0.name == "th" }
            guard !cells.isEmpty else { continue }
            if !first { out += "<br>" }
            first = false
            // Bars stand between cells of text: a row of images alone is no row of bars.
            var texts = 0
            for cell in cells {
              let hasText = cell.length > 0
              if hasText, texts > 0 { out += " | " }
              if hasText { texts += 1 }
              writeInline(cell, into: &out)
            }
          }
          out += "</p>\n"
        case "figure":
          out += "<div>"
          for child in element.children { write(child, into: &out) }
          out += "</div>\n"
        case "figcaption":
          out += "<p>"
          for child in element.children { write(child, into: &out) }
          out += "</p>\n"
        case let name where kept.contains(name):
          let tag = name == "section" || name == "article" ? "div" : name
          if tag == "br" || tag == "hr" {
            out += "<\(tag)>"
            return
          }
          out += "<\(tag)>"
          for child in element.children { write(child, into: &out) }
          out += "</\(tag)>\n"
        default:
          for child in element.children { write(child, into: &out) }
        }
      }
    }

    /// `element`'s text and links on one line: the blocks inside a table's cell are not
    /// paragraphs of the article.
    mutating func writeInline(_ element: HTMLElement, into out: inout String) {
      var first = true
      for child in element.children {
        switch child {
        case .text(let text):
          out += escape(text.split(whereSeparator: \.isNewline).joined(separator: " "))
        case .element(let inner):
          if inner.name == "a" || inner.name == "img" {
            write(child, into: &out)
          } else {
            if HTMLElement.blockNames.contains(inner.name), !first { out += " " }
            writeInline(inner, into: &out)
          }
        }
        first = false
      }
    }
  }

  /// Whether `row` belongs to a table inside `table` (its rows are written by that table).
  static func hasNestedTable(_ row: HTMLElement, under table: HTMLElement) -> Bool {
    var current = row.parent
    while let next = current, next !== table {
      if next.name == "table" { return true }
      current = next.parent
    }
    return false
  }

  /// The text of a `<pre>`, line breaks and spaces kept.
  static func preformatted(_ element: HTMLElement) -> String {
    var text = ""
    for child in element.children {
      switch child {
      case .text(let piece): text += piece
      case .element(let inner): text += inner.name == "br" ? "\n" : preformatted(inner)
      }
    }
    return text
  }
}
