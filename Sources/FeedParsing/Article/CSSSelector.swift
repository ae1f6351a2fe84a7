/// The small selector language of per-source extraction rules (`"extract": {"keep": "article
/// .post-body", "drop": ".newsletter, .related"}`): a tag, `.class`, `#id`, `[attr]` and
/// `[attr=value]` (quoted or not), combined in one compound (`div.post#main`), with descendant
/// (space) and child (`>`) combinators, and comma lists. Case-insensitive for tags and
/// attribute names, as in HTML.
package struct CSSSelector: Sendable, Equatable {
  /// One compound: everything it requires of one element.
  struct Compound: Sendable, Equatable {
    var tag: String?
    var classes: [String] = []
    var id: String?
    var attributes: [(name: String, value: String?)] = []

    static func == (left: Compound, right: Compound) -> Bool {
      left.tag == right.tag && left.classes == right.classes && left.id == right.id
        && left.attributes.map(\.name) == right.attributes.map(\.name)
        && left.attributes.map(\.value) == right.attributes.map(\.value)
    }

    func matches(_ element: HTMLElement) -> Bool {
      if let tag, tag != "*", element.name != tag { return false }
      if let id, element["id"] != id { return false }
      if !classes.isEmpty {
        let own = Set(
          (element["class"] ?? "").split(whereSeparator: \.isWhitespace).map(String.init))
        guard classes.allSatisfy(own.contains) else { return false }
      }
      for (name, value) in attributes {
        guard let actual = element[name] else { return false }
        if let value, actual != value { return false }
      }
      return true
    }
  }

  /// The alternatives of the comma list; each a chain of compounds read right to left, with
  /// whether each link is a child (`>`) rather than a descendant one.
  var alternatives: [[(compound: Compound, child: Bool)]]

  package static func == (left: CSSSelector, right: CSSSelector) -> Bool {
    left.alternatives.count == right.alternatives.count
      && zip(left.alternatives, right.alternatives).allSatisfy { a, b in
        a.map(\.compound) == b.map(\.compound) && a.map(\.child) == b.map(\.child)
      }
  }

  /// Why a selector cannot be read.
  package struct Failure: Error, Equatable {
    package var detail: String
  }

  /// Reads `text`.
  package init(_ text: String) throws(Failure) {
    var alternatives: [[(compound: Compound, child: Bool)]] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let chain = try Self.chain(String(part))
      alternatives.append(chain)
    }
    guard !alternatives.isEmpty else { throw Failure(detail: "an empty selector") }
    self.alternatives = alternatives
  }

  private static func chain(_ text: String) throws(Failure) -> [(compound: Compound, child: Bool)] {
    var chain: [(compound: Compound, child: Bool)] = []
    var scalars = Array(text.unicodeScalars)[...]
    var child = false
    func isName(_ scalar: Unicode.Scalar) -> Bool {
      scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-"
        || scalar == "_"
    }
    func name() -> String {
      var result = ""
      while let next = scalars.first, isName(next) {
        result.unicodeScalars.append(next)
        scalars = scalars.dropFirst()
      }
      return result
    }
    while true {
      while let next = scalars.first, next == " " || next == "\t" || next == "\n" {
        scalars = scalars.dropFirst()
      }
      guard let first = scalars.first else { break }
      if first == ">" {
        guard !chain.isEmpty, !child else {
          throw Failure(detail: "'>' without an element before it")
        }
        child = true
        scalars = scalars.dropFirst()
        continue
      }
      var compound = Compound()
      var read = false
      if first == "*" {
        compound.tag = "*"
        scalars = scalars.dropFirst()
        read = true
      } else if isName(first) {
        compound.tag = name().lowercased()
        read = true
      }
      loop: while let next = scalars.first {
        switch next {
        case ".":
          scalars = scalars.dropFirst()
          let value = name()
          guard !value.isEmpty else { throw Failure(detail: "'.' without a class name") }
          compound.classes.append(value)
        case "#":
          scalars = scalars.dropFirst()
          let value = name()
          guard !value.isEmpty else { throw Failure(detail: "'#' without an id") }
          compound.id = value
        case "[":
          scalars = scalars.dropFirst()
          let attribute = name().lowercased()
          guard !attribute.isEmpty else { throw Failure(detail: "'[' without an attribute name") }
          var value: String?
          if scalars.first == "=" {
            scalars = scalars.dropFirst()
            if let quote = scalars.first, quote == "\"" || quote == "'" {
              scalars = scalars.dropFirst()
              var text = ""
              while let scalar = scalars.first, scalar != quote {
                text.unicodeScalars.append(scalar)
                scalars = scalars.dropFirst()
              }
              guard scalars.first == quote else { throw Failure(detail: "an unclosed quote") }
              scalars = scalars.dropFirst()
              value = text
            } else {
              var text = ""
              while let scalar = scalars.first, scalar != "]" {
                text.unicodeScalars.append(scalar)
                scalars = scalars.dropFirst()
              }
              value = text
            }
          }
          guard scalars.first == "]" else { throw Failure(detail: "'[' without its ']'") }
          scalars = scalars.dropFirst()
          compound.attributes.append((attribute, value))
        default:
          break loop
        }
        read = true
      }
      guard read else {
        throw Failure(
          detail:
            "unexpected '\(Character(first))' (tag, .class, #id, [attr], [attr=value], '>' and ',' are understood)"
        )
      }
      chain.append((compound, child))
      child = false
    }
    guard !chain.isEmpty else { throw Failure(detail: "an empty selector") }
    guard !child else { throw Failure(detail: "'>' without an element after it") }
    return chain
  }

  /// Whether `element` matches one of the alternatives.
  package func matches(_ element: HTMLElement) -> Bool {
    alternatives.contains { Self.matches(element, chain: $0[...]) }
  }

  private static func matches(
    _ element: HTMLElement, chain: ArraySlice<(compound: Compound, child: Bool)>
  ) -> Bool {
    guard let last = chain.last, last.compound.matches(element) else { return false }
    let rest = chain.dropLast()
    guard !rest.isEmpty else { return true }
    if last.child {
      guard let parent = element.parent else { return false }
      return matches(parent, chain: rest)
    }
    var ancestor = element.parent
    while let current = ancestor {
      if matches(current, chain: rest) { return true }
      ancestor = current.parent
    }
    return false
  }

  /// The elements below `root` it matches, in document order.
  package func select(in root: HTMLElement) -> [HTMLElement] {
    root.descendants.filter(matches)
  }
}
