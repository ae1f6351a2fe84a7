import Foundation

/// Reads a page into a tree of ``HTMLElement``s the lenient way browsers do, well enough for
/// extraction: void elements, `<p>` and `<li>` closed by what cannot be inside them, end tags
/// without a start ignored, unclosed elements closed at the end, `script`/`style` and the like
/// kept as raw text, comments dropped, depth capped. Linear in the page's size.
package enum HTMLTreeBuilder {
  /// Elements nested deeper than this are made siblings instead (a page of a million `<div>`s).
  static let maximumDepth = 400
  /// Past this many elements, tags are read as word breaks and their text kept (as
  /// Readability's `maxElemsToParse` bounds a page): an 8 MB table of 800,000 cells stays
  /// within the memory an extraction may take.
  static let maximumElements = 250_000

  static let voidElements: Set<String> = [
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr", "keygen",
  ]
  /// Elements whose content is text up to their end tag.
  static let rawTextElements: Set<String> = [
    "script", "style", "textarea", "title", "noscript", "template", "xmp", "iframe", "noembed",
    "noframes", "plaintext",
  ]
  /// Where looking for an open element stops, for each that closes another.
  static let paragraphScope: Set<String> = ["button", "table", "td", "th"]
  static let listScope: Set<String> = ["ul", "ol", "menu"]
  static let definitionScope: Set<String> = ["dl"]
  static let tableScope: Set<String> = ["table"]
  static let rowScope: Set<String> = ["tr", "table"]
  static let selectScope: Set<String> = ["select"]
  static let noScope: Set<String> = []
  /// Elements whose start closes an open `<p>`.
  static let closesParagraph: Set<String> = [
    "address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset",
    "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hgroup", "hr", "main", "menu", "nav", "ol", "p", "pre", "section", "table", "ul", "li",
  ]

  /// The tree of `html`, under a `#document` root.
  package static func parse(_ html: String) -> HTMLElement {
    let root = HTMLElement(name: "#document")
    var stack: [HTMLElement] = [root]
    // How many of each element are open: a tag looks through the stack only for an element
    // that is on it, so a flood of stray tags under 400 open elements costs one lookup each.
    var openCounts: [String: Int] = [:]
    var elementCount = 0
    let bytes = Array(html.utf8)
    var index = 0
    var textStart = 0

    func flushText(upTo end: Int) {
      guard end > textStart, let current = stack.last else { return }
      appendText(
        XMLTokenizer.decodingReferences(bytes[textStart..<end], nbspAsSpace: true), to: current)
    }
    /// Text joins the text just before it in place (a page of 100,000 comments between words
    /// stays linear).
    func appendText(_ text: String, to element: HTMLElement) {
      guard case .text(var previous)? = element.children.last else {
        element.children.append(.text(text))
        return
      }
      // The array lets go of the text first, so that it grows in place.
      element.children[element.children.count - 1] = .text("")
      previous += text
      element.children[element.children.count - 1] = .text(previous)
    }
    func isOpen(_ name: String, within boundaries: Set<String>) -> Bool {
      guard openCounts[name, default: 0] > 0 else { return false }
      for element in stack.reversed() {
        if element.name == name { return true }
        if boundaries.contains(element.name) { return false }
      }
      return false
    }
    func close(_ name: String) {
      guard openCounts[name, default: 0] > 0,
        let position = stack.lastIndex(where: { $0.name == name }), position > 0
      else { return }
      for element in stack[position...] { openCounts[element.name, default: 1] -= 1 }
      stack.removeSubrange(position...)
    }
    func open(_ name: String, attributes: [String: String], selfClosing: Bool) {
      guard elementCount < maximumElements else {
        // No more elements: the tag is a word break in the text around it, and closes nothing.
        if let current = stack.last { appendText(" ", to: current) }
        return
      }
      // What the new element cannot be inside of is closed first.
      if closesParagraph.contains(name),
        isOpen("p", within: paragraphScope)
      {
        close("p")
      }
      switch name {
      case "li":
        if isOpen("li", within: listScope) { close("li") }
      case "dt", "dd":
        for other in ["dt", "dd"] where isOpen(other, within: definitionScope) { close(other) }
      case "tr":
        if isOpen("tr", within: tableScope) { close("tr") }
      case "td", "th":
        for other in ["td", "th"] where isOpen(other, within: rowScope) { close(other) }
      case "option":
        if isOpen("option", within: selectScope) { close("option") }
      case "a":
        if isOpen("a", within: noScope) { close("a") }
      default:
        break
      }
      elementCount += 1
      let element = HTMLElement(name: name, attributes: attributes)
      let parent = stack.count > maximumDepth ? stack[maximumDepth] : stack[stack.count - 1]
      parent.append(.element(element))
      if !selfClosing, !voidElements.contains(name), stack.count <= maximumDepth {
        stack.append(element)
        openCounts[name, default: 0] += 1
      }
    }

    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count else {
        index += 1
        continue
      }
      let next = bytes[index + 1]
      if next == UInt8(ascii: "!") {
        flushText(upTo: index)
        if starts(bytes, at: index, with: "<!--") {
          index = after(bytes, "-->", from: index + 4) ?? bytes.count
        } else if starts(bytes, at: index, with: "<![cdata[") {
          let end = find(bytes, "]]>", from: index + 9) ?? bytes.count
          stack.last?.children.append(
            .text(String(decoding: bytes[(index + 9)..<end], as: UTF8.self)))
          index = min(end + 3, bytes.count)
        } else {
          index = (bytes[index...].firstIndex(of: UInt8(ascii: ">")) ?? bytes.count - 1) + 1
        }
        textStart = index
        continue
      }
      if next == UInt8(ascii: "?") {
        flushText(upTo: index)
        index = (bytes[index...].firstIndex(of: UInt8(ascii: ">")) ?? bytes.count - 1) + 1
        textStart = index
        continue
      }
      let closing = next == UInt8(ascii: "/")
      let nameStart = index + (closing ? 2 : 1)
      guard nameStart < bytes.count, isLetter(bytes[nameStart]) else {
        index += 1
        continue
      }
      flushText(upTo: index)
      var cursor = nameStart
      while cursor < bytes.count, !isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: ">"),
        bytes[cursor] != UInt8(ascii: "/")
      {
        cursor += 1
      }
      let name = lowercased(bytes[nameStart..<cursor])
      var attributes: [String: String] = [:]
      var selfClosing = false
      // Attributes up to the `>` that is not inside quotes.
      while cursor < bytes.count, bytes[cursor] != UInt8(ascii: ">") {
        let byte = bytes[cursor]
        if isSpace(byte) {
          cursor += 1
          continue
        }
        if byte == UInt8(ascii: "/") {
          selfClosing = true
          cursor += 1
          continue
        }
        selfClosing = false
        let start = cursor
        while cursor < bytes.count, !isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: "="),
          bytes[cursor] != UInt8(ascii: ">")
        {
          cursor += 1
        }
        let attribute = lowercased(bytes[start..<cursor])
        while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
        var value = ""
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") {
          cursor += 1
          while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
          if cursor < bytes.count,
            bytes[cursor] == UInt8(ascii: "\"") || bytes[cursor] == UInt8(ascii: "'")
          {
            let quote = bytes[cursor]
            let valueStart = cursor + 1
            let end = bytes[valueStart...].firstIndex(of: quote) ?? bytes.count
            value = XMLTokenizer.decodingReferences(bytes[valueStart..<end])
            cursor = min(end + 1, bytes.count)
          } else {
            let valueStart = cursor
            while cursor < bytes.count, !isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: ">")
            {
              cursor += 1
            }
            value = XMLTokenizer.decodingReferences(bytes[valueStart..<cursor])
          }
        }
        if !attribute.isEmpty, attributes[attribute] == nil { attributes[attribute] = value }
      }
      index = min(cursor + 1, bytes.count)
      textStart = index
      if closing {
        close(name)
        continue
      }
      open(name, attributes: attributes, selfClosing: selfClosing)
      if rawTextElements.contains(name), !selfClosing {
        // Its content, up to its end tag, is one text (a noscript's is read again as HTML
        // where an image is looked for).
        let end = find(bytes, "</" + name, from: index) ?? bytes.count
        if end > index, let element = stack.last, element.name == name {
          element.children.append(
            .text(
              name == "title" || name == "textarea"
                ? XMLTokenizer.decodingReferences(bytes[index..<end])
                : String(decoding: bytes[index..<end], as: UTF8.self)))
        }
        close(name)
        index =
          end < bytes.count
          ? (bytes[end...].firstIndex(of: UInt8(ascii: ">")) ?? bytes.count - 1) + 1 : bytes.count
        textStart = index
      }
    }
    flushText(upTo: bytes.count)
    return root
  }

  /// `bytes` as a string, ASCII letters in lower case (tag and attribute names).
  private static func lowercased(_ bytes: ArraySlice<UInt8>) -> String {
    guard bytes.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else {
      return String(decoding: bytes, as: UTF8.self)
    }
    return String(decoding: bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
  }

  private static func isLetter(_ byte: UInt8) -> Bool {
    (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
  }

  /// Whether `text` (ASCII, lower-case) stands at `index`, compared without case.
  static func starts(_ bytes: [UInt8], at index: Int, with text: String) -> Bool {
    let pattern = Array(text.utf8)
    guard index + pattern.count <= bytes.count else { return false }
    for offset in pattern.indices
    where bytes[index + offset] | (isLetter(bytes[index + offset]) ? 0x20 : 0) != pattern[offset] {
      return false
    }
    return true
  }

  /// Where the next `text` (case-insensitive) starts at or after `index`.
  static func find(_ bytes: [UInt8], _ text: String, from index: Int) -> Int? {
    guard let first = text.utf8.first else { return nil }
    var position = index
    while position < bytes.count {
      guard
        let found = bytes[position...].firstIndex(where: {
          $0 | 0x20 == first | 0x20 || $0 == first
        })
      else {
        return nil
      }
      if starts(bytes, at: found, with: text) { return found }
      position = found + 1
    }
    return nil
  }

  /// Just past the next `text` at or after `index`.
  static func after(_ bytes: [UInt8], _ text: String, from index: Int) -> Int? {
    find(bytes, text, from: index).map { $0 + text.utf8.count }
  }
}
