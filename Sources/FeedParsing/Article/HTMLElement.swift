import Foundation

/// An element of a page as ``HTMLTreeBuilder`` reads it: its name (lower-case), attributes and
/// children, text as ``HTMLNode/text``. A class: extraction scores and moves elements in place.
package final class HTMLElement {
  /// `p`, `div`; `#document` for the root.
  package let name: String
  /// Attributes by lower-case name (the first of a name wins, as in HTML).
  package var attributes: [String: String]
  package var children: [HTMLNode] = []
  package weak var parent: HTMLElement?
  /// What scoring gave it (``ArticleExtractor``).
  var score: Double = 0
  var scored = false

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
    var stack = elements.reversed() as [HTMLElement]
    while let next = stack.popLast() {
      found.append(next)
      stack += next.elements.reversed()
    }
    return found
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

  /// The length of its text inside links.
  var linkTextLength: Int {
    all(["a"]).reduce(0) { $0 + $1.text.count }
  }

  /// The share of its text that is link text (0 when it has none).
  var linkDensity: Double {
    let length = text.count
    guard length > 0 else { return 0 }
    return Double(linkTextLength) / Double(length)
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
