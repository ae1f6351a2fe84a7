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
  /// 32 bits each (a page is at most a few hundred MB): a page of 800,000 cells holds as many
  /// elements, each as small as it can be.
  private var textLength32: Int32 = 0
  private var linkLength32: Int32 = 0
  private var commas32: Int32 = 0
  private var measured = false
  /// Marked removed (``markRemoved()``): skipped by every walk, and taken out of its parent's
  /// children by ``sweep(_:)``. Many removals under one parent then cost one pass, not one each.
  private(set) var isRemoved = false

  package init(name: String, attributes: [String: String] = [:]) {
    self.name = name
    self.attributes = attributes
  }

  package subscript(_ attribute: String) -> String? { attributes[attribute] }

  /// The element children, in order.
  package var elements: [HTMLElement] {
    children.compactMap {
      if case .element(let element) = $0, !element.isRemoved { element } else { nil }
    }
  }

  /// Every element below it, depth first, in document order.
  package var descendants: [HTMLElement] {
    var found: [HTMLElement] = []
    var stack: [HTMLElement] = []
    func push(_ element: HTMLElement) {
      for child in element.children.reversed() {
        if case .element(let inner) = child, !inner.isRemoved { stack.append(inner) }
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
      guard case .element(let element) = child, !element.isRemoved else { continue }
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
      case .element(let element) where element.isRemoved: continue
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
      case .element(let element) where element.isRemoved: continue
      case .element(let element):
        element.measure()
        length += element.textLength
        links += element.isLink ? element.textLength : element.linkLength
        commas += element.commas
      }
    }
    (textLength32, linkLength32, commas32, measured) = (
      Int32(clamping: length), Int32(clamping: links), Int32(clamping: commas), true
    )
  }

  /// Whether it is a link a reader can follow: an `a` whose `href` is not a script
  /// (`javascript:`). A script link goes nowhere once the page's scripts are gone; its text is
  /// the page's own, as Readability makes it when it turns such links into their text.
  var isLink: Bool {
    guard name == "a" else { return false }
    guard let href = attributes["href"] else { return true }
    return ArticleSerializer.trimmed(href).prefix(11).lowercased() != "javascript:"
  }

  /// The length of `text` in UTF-16 units (JavaScript's, which Readability's thresholds count)
  /// with each run of ASCII spaces counted once (none at the ends),
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
        // Counted as JavaScript counts a string's length, as Readability's thresholds are:
        // a UTF-16 unit a character, two beyond the Basic Multilingual Plane (a lead byte of
        // four); a continuation byte adds nothing.
        if byte & 0xC0 != 0x80 { length += byte >= 0xF0 ? 2 : 1 }
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

  private var textLength: Int { Int(textLength32) }
  private var linkLength: Int { Int(linkLength32) }
  private var commas: Int { Int(commas32) }

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

  /// Readability's blocks that keep a div from being a paragraph (`DIV_TO_P_ELEMS`).
  static let paragraphBreakers: Set<String> = [
    "blockquote", "dl", "div", "img", "ol", "p", "pre", "table", "ul",
  ]
  /// Readability's phrasing content (`PHRASING_ELEMS`), and `a`, `del` and `ins` holding only
  /// phrasing content.
  static let phrasingNames: Set<String> = [
    "abbr", "audio", "b", "bdo", "br", "button", "cite", "code", "data", "datalist", "dfn", "em",
    "embed", "i", "img", "input", "kbd", "label", "mark", "math", "meter", "noscript", "object",
    "output", "progress", "q", "ruby", "samp", "script", "select", "small", "span", "strong",
    "sub", "sup", "textarea", "time", "var", "wbr",
  ]

  /// Whether any element below it is one of ``paragraphBreakers``.
  var hasBlockDescendant: Bool {
    elements.contains {
      !$0.isRemoved && (Self.paragraphBreakers.contains($0.name) || $0.hasBlockDescendant)
    }
  }

  /// Whether it is phrasing content (text-level markup), as Readability reads it.
  var isPhrasing: Bool {
    if Self.phrasingNames.contains(name) { return true }
    guard name == "a" || name == "del" || name == "ins" else { return false }
    return elements.allSatisfy { $0.isRemoved || $0.isPhrasing }
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

  /// Marks it removed: every walk skips it from now on; ``sweep(_:)`` takes it out of its
  /// parent's children.
  func markRemoved() {
    isRemoved = true
  }

  /// Takes the elements marked removed out of the children of `parents` (each parent's children
  /// read once).
  static func sweep(_ parents: [HTMLElement]) {
    var seen = Set<ObjectIdentifier>()
    for parent in parents where seen.insert(ObjectIdentifier(parent)).inserted {
      parent.children.removeAll { node in
        guard case .element(let element) = node, element.isRemoved else { return false }
        element.parent = nil
        return true
      }
    }
  }

  /// How many elements called `name` are below it, counting no further than `limit`.
  func count(of name: String, upTo limit: Int) -> Int {
    var found = 0
    var stack = elements
    while let next = stack.popLast(), found < limit {
      if next.name == name { found += 1 }
      stack += next.elements
    }
    return found
  }

  /// Whether its text, spaces aside, is shorter than `limit` characters, reading no more of it
  /// than that.
  func hasShortText(under limit: Int) -> Bool {
    var count = 0
    var stack: [HTMLNode] = children.reversed()
    while let next = stack.popLast() {
      switch next {
      case .text(let text):
        count += text.unicodeScalars.count { !$0.properties.isWhitespace }
        if count >= limit { return false }
      case .element(let element) where !element.isRemoved:
        stack += element.children.reversed()
      case .element:
        continue
      }
    }
    return true
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
