import Foundation

/// An element of a page as ``HTMLTreeBuilder`` reads it: its name (lower-case), attributes and
/// children, text as ``HTMLNode/text``. A class: extraction scores and moves elements in place.
package final class HTMLElement {
  /// `p`, `div`; `#document` for the root.
  package let name: String
  /// Attributes by lower-case name (the first of a name wins, as in HTML).
  package var attributes: [String: String]
  package var children: [HTMLNode] = []
  /// Unowned, not weak: a weak reference would put every element's counts in a side table and
  /// make each retain slow; the root (and the extraction's own lists) keep every element alive.
  package unowned var parent: HTMLElement?
  /// What scoring gave it (``ArticleExtractor``).
  var score: Double = 0
  var scored = false
  /// Its text's length in UTF-8 bytes (a run of spaces counted once), the part inside links,
  /// and its commas: measured once for the whole tree (``measure()``), not for each question.
  private(set) var textLength = 0
  private(set) var linkLength = 0
  private(set) var commas = 0
  private var measured = false

  package init(name: String, attributes: [String: String] = [:]) {
    self.name = name
    self.attributes = attributes
  }

  package subscript(_ attribute: String) -> String? { attributes[attribute] }

  /// The element children, in order.
  package var elements: [HTMLElement] {
    children.compactMap { if case .element(let element) = $0 { element } else { nil } }
  }

  /// Every element below it, depth first, in document order.
  package var descendants: [HTMLElement] {
    var found: [HTMLElement] = []
    var stack: [HTMLElement] = []
    func push(_ element: HTMLElement) {
      for child in element.children.reversed() {
        if case .element(let inner) = child { stack.append(inner) }
      }
    }
    push(self)
    while let next = stack.popLast() {
      found.append(next)
      push(next)
    }
    return found
  }

  /// The first element below it called `name`, in document order.
  package func first(named name: String) -> HTMLElement? {
    for child in children {
      guard case .element(let element) = child else { continue }
      if element.name == name { return element }
      if let found = element.first(named: name) { return found }
    }
    return nil
  }

  /// The descendants called one of `names`.
  package func all(_ names: Set<String>) -> [HTMLElement] {
    descendants.filter { names.contains($0.name) }
  }

  /// Its text, whitespace collapsed to single spaces.
  package var text: String {
    var pieces: [String] = []
    collectText(into: &pieces)
    return pieces.joined().split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  private func collectText(into pieces: inout [String]) {
    for child in children {
      switch child {
      case .text(let text): pieces.append(text)
      case .element(let element):
        if Self.blockNames.contains(element.name) { pieces.append(" ") }
        element.collectText(into: &pieces)
        if Self.blockNames.contains(element.name) { pieces.append(" ") }
      }
    }
  }

  /// Measures it and everything below it (text and link lengths, commas), bottom up, once;
  /// call again after the tree changed.
  func measure() {
    var length = 0
    var links = 0
    var commas = 0
    for child in children {
      switch child {
      case .text(let text):
        let (bytes, found) = Self.measure(text)
        length += bytes
        commas += found
      case .element(let element):
        element.measure()
        length += element.textLength
        links += element.name == "a" ? element.textLength : element.linkLength
        commas += element.commas
      }
    }
    (textLength, linkLength, self.commas, measured) = (length, links, commas, true)
  }

  /// The UTF-8 length of `text` with each run of ASCII spaces counted once (none at the ends),
  /// and its commas (`,`, `，`, `、`).
  static func measure(_ text: String) -> (length: Int, commas: Int) {
    var length = 0
    var commas = 0
    var pendingSpace = false
    var previous: (UInt8, UInt8) = (0, 0)
    for byte in text.utf8 {
      if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C {
        pendingSpace = length > 0
      } else {
        if pendingSpace { length += 1 }
        pendingSpace = false
        length += 1
        if byte == 0x2C || (previous == (0xEF, 0xBC) && byte == 0x8C)
          || (previous == (0xE3, 0x80) && byte == 0x81)
        {
          commas += 1
        }
      }
      previous = (previous.1, byte)
    }
    return (length, commas)
  }

  /// The share of its text that is link text (0 when it has none).
  var linkDensity: Double {
    if !measured { measure() }
    guard textLength > 0 else { return 0 }
    return Double(linkLength) / Double(textLength)
  }

  /// The length of its text (UTF-8 bytes, spaces collapsed).
  var length: Int {
    if !measured { measure() }
    return textLength
  }

  /// Its commas.
  var commaCount: Int {
    if !measured { measure() }
    return commas
  }

  /// `class` and `id`, lower-case, for matching words.
  var classAndID: String {
    ((attributes["class"] ?? "") + " " + (attributes["id"] ?? "")).lowercased()
  }

  /// Removes it from its parent.
  package func remove() {
    guard let parent else { return }
    parent.children.removeAll {
      if case .element(let element) = $0 { element === self } else { false }
    }
    self.parent = nil
  }

  package func append(_ node: HTMLNode) {
    if case .element(let element) = node { element.parent = self }
    children.append(node)
  }

  /// Elements that separate words when their text is read.
  static let blockNames: Set<String> = [
    "p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre",
    "table", "tr", "td", "th", "section", "article", "header", "footer", "aside", "nav", "figure",
    "figcaption", "dd", "dt", "dl", "main", "hr", "address", "form",
  ]
}

/// A child of an element: an element, or text (entities decoded).
package enum HTMLNode {
  case element(HTMLElement)
  case text(String)
}
