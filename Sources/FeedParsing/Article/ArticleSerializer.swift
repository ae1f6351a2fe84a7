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

  static func html(_ elements: [HTMLElement], base: URL?, title: String?) -> String {
    var out = ""
    for element in elements { write(.element(element), base: base, into: &out) }
    return out
  }

  static func escape(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      default: escaped.append(character)
      }
    }
    return escaped
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

  static func write(_ node: HTMLNode, base: URL?, into out: inout String) {
    switch node {
    case .text(let text):
      out += escape(text)
    case .element(let element):
      switch element.name {
      case "pre":
        // Preformatted text as it is: its lines and spaces.
        out += "<pre>" + escape(preformatted(element)) + "</pre>\n"
      case "img":
        guard let source = imageSource(element) else { return }
        let resolved = FeedLinks.resolve(source, against: base)
        let alt = element["alt"].map { " alt=\"\(escape($0))\"" } ?? ""
        out += "<img src=\"\(escape(resolved))\"\(alt)>"
      case "a":
        let raw = element["href"]?.trimmingCharacters(in: .whitespaces) ?? ""
        let text = element.text
        // A permalink mark (`¶`, `#`) is no text; an in-page link (`#cite_note-1`) and a link
        // around nothing but an image are no links.
        if raw.hasPrefix("#"), ["¶", "#", "§", "🔗", ""].contains(text) { return }
        let href = raw.hasPrefix("#") || text.isEmpty ? nil : FeedLinks.resolve(raw, against: base)
        if let href, FeedLinks.isWebLink(href) {
          out += "<a href=\"\(escape(href))\">"
          for child in element.children { write(child, base: base, into: &out) }
          out += "</a>"
        } else {
          for child in element.children { write(child, base: base, into: &out) }
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
          for (index, cell) in cells.enumerated() {
            if index > 0 { out += " | " }
            writeInline(cell, base: base, into: &out)
          }
        }
        out += "</p>\n"
      case "figure":
        out += "<div>"
        for child in element.children { write(child, base: base, into: &out) }
        out += "</div>\n"
      case "figcaption":
        out += "<p>"
        for child in element.children { write(child, base: base, into: &out) }
        out += "</p>\n"
      case let name where kept.contains(name):
        let tag = name == "section" || name == "article" ? "div" : name
        if tag == "br" || tag == "hr" {
          out += "<\(tag)>"
          return
        }
        out += "<\(tag)>"
        for child in element.children { write(child, base: base, into: &out) }
        out += "</\(tag)>\n"
      default:
        for child in element.children { write(child, base: base, into: &out) }
      }
    }
  }

  /// `element`'s text and links on one line: the blocks inside a table's cell are not
  /// paragraphs of the article.
  static func writeInline(_ element: HTMLElement, base: URL?, into out: inout String) {
    var first = true
    for child in element.children {
      switch child {
      case .text(let text):
        out += escape(text.split(whereSeparator: \.isNewline).joined(separator: " "))
      case .element(let inner):
        if inner.name == "a" || inner.name == "img" {
          write(child, base: base, into: &out)
        } else {
          if HTMLElement.blockNames.contains(inner.name), !first { out += " " }
          writeInline(inner, base: base, into: &out)
        }
      }
      first = false
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
