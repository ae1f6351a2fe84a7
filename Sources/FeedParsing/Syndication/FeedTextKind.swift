import Foundation

/// What the text of a feed element is: plain text, escaped HTML, inline XHTML, or plain text
/// that may be HTML (RSS titles are nominally plain, and routinely are not).
package enum FeedTextKind: Equatable {
  case text
  case html
  case xhtml
  /// Plain unless it looks like HTML (a closing tag or an entity, every tag one of HTML's).
  case guess

  /// The kind an element's attributes declare (Atom 1.0 `type`; Atom 0.3 `type` and `mode`;
  /// any element's `type`), or `fallback`, and whether its text is base64.
  package static func declared(by tag: XMLStartTag, fallback: FeedTextKind) -> (FeedTextKind, Bool)
  {
    let mode = tag.attribute("mode")?.lowercased()
    var base64 = mode == "base64"
    guard var type = tag.attribute("type")?.lowercased() else { return (fallback, base64) }
    type = String(type.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces)
    let kind: FeedTextKind
    switch type {
    // Media RSS writes `plain` (`media:title type="plain"`) where Atom writes `text`.
    case "text", "text/plain", "plain": kind = mode == "escaped" ? .guess : .text
    case "html", "text/html": kind = mode == "xml" ? .xhtml : .html
    case "xhtml", "application/xhtml+xml": kind = .xhtml
    case "": kind = fallback
    default:
      if type.hasPrefix("text/") {
        kind = .text
      } else if type.hasSuffix("+xml") || type.hasSuffix("/xml") {
        kind = .xhtml
      } else {
        // Atom: any other media type is base64 (an image, a PDF): its text is no text.
        kind = .text
        base64 = true
      }
    }
    return (kind, base64)
  }

  /// `raw` (the element's text, references decoded; markup of child elements as written) as
  /// plain text; with `images`, HTML's images stay as `[image]` marks and its links are numbered
  /// and listed (an article's content; relative links resolved against `base`).
  package func plain(_ raw: String, images: Bool = false, base: URL? = nil) -> String {
    func html(_ text: String) -> String {
      images ? HTMLText.content(text, base: base) : HTMLText.plain(text)
    }
    switch self {
    case .text: return HTMLText.tidy(raw)
    case .html, .xhtml: return html(raw)
    case .guess: return Self.looksLikeHTML(raw) ? html(raw) : HTMLText.tidy(raw)
    }
  }

  /// Base64 text as UTF-8, or `nil` when it is not both.
  package static func base64Decoded(_ text: String) -> String? {
    let compact = text.filter { !$0.isWhitespace }
    guard let data = Data(base64Encoded: compact, options: .ignoreUnknownCharacters) else {
      return nil
    }
    return String(data: data, encoding: .utf8)
  }

  /// feedparser's rule: a closing tag or a reference, and every tag one of HTML's own.
  package static func looksLikeHTML(_ text: String) -> Bool {
    guard text.containsByte(UInt8(ascii: "<")) || text.containsByte(UInt8(ascii: "&")) else {
      return false
    }
    let scalars = Array(text.unicodeScalars)
    var sawEvidence = false
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "<" {
        var cursor = index + 1
        let closing = cursor < scalars.count && scalars[cursor] == "/"
        if closing { cursor += 1 }
        var name = ""
        while cursor < scalars.count, scalars[cursor].isASCIILetter || scalars[cursor].isASCIIDigit,
          name.count < 16
        {
          name.unicodeScalars.append(scalars[cursor])
          cursor += 1
        }
        if !name.isEmpty {
          guard htmlElements.contains(name.lowercased()) else { return false }
          if closing || name.lowercased() == "br" { sawEvidence = true }
        }
      } else if scalar == "&" {
        var cursor = index + 1
        var name = ""
        while cursor < scalars.count, cursor - index < 12,
          (scalars[cursor].isASCIILetter || scalars[cursor].isASCIIDigit) || scalars[cursor] == "#"
        {
          name.unicodeScalars.append(scalars[cursor])
          cursor += 1
        }
        if cursor < scalars.count, scalars[cursor] == ";", !name.isEmpty {
          guard name.hasPrefix("#") || HTMLEntities.scalar(named: Substring(name)) != nil else {
            return false
          }
          sawEvidence = true
        }
      }
      index += 1
    }
    return sawEvidence
  }

  /// HTML's elements that text may hold.
  package static let htmlElements: Set<String> = [
    "a", "abbr", "acronym", "address", "area", "article", "aside", "audio", "b", "big",
    "blockquote",
    "br", "button", "canvas", "caption", "center", "cite", "code", "col", "colgroup", "dd", "del",
    "details", "dfn", "dir", "div", "dl", "dt", "em", "fieldset", "figcaption", "figure", "font",
    "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "i", "img", "input",
    "ins", "kbd", "label", "legend", "li", "map", "mark", "menu", "nav", "ol", "optgroup", "option",
    "p", "pre", "q", "s", "samp", "section", "select", "small", "source", "span", "strike",
    "strong", "sub", "summary", "sup", "table", "tbody", "td", "textarea", "tfoot", "th", "thead",
    "time", "tr", "tt", "u", "ul", "var", "video", "wbr",
  ]
}
