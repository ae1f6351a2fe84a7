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

    /// Whether `element` matches; `tokens` are its classes, split the first time a compound of
    /// any alternative asks for them and kept for the others.
    func matches(_ element: HTMLElement, tokens: inout [String]?) -> Bool {
      if let tag, tag != "*", element.name != tag { return false }
      if let id, element["id"] != id { return false }
      if !classes.isEmpty {
        if tokens == nil {
          tokens = (element["class"] ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
        }
        let own = tokens ?? []
        guard classes.allSatisfy({ wanted in own.contains { $0 == wanted } }) else {
          return false
        }
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

  /// The longest selector read, in characters.
  package static let maximumLength = 1_024
  /// The most alternatives of a comma list.
  package static let maximumAlternatives = 32
  /// The most compounds of one alternative (`article div p` is three).
  package static let maximumCompounds = 16
  /// The most work one selection does on a page: elements walked times the compounds of all
  /// alternatives (the product is bounded, not each factor). On a page past it, the elements
  /// after that point are not matched.
  package static let maximumWork = 20_000_000

  /// Reads `text`; a selector longer than ``maximumLength``, with more than
  /// ``maximumAlternatives`` alternatives or ``maximumCompounds`` compounds in one, is refused.
  package init(_ text: String) throws(Failure) {
    guard text.count <= Self.maximumLength else {
      throw Failure(detail: "longer than \(Self.maximumLength) characters")
    }
    var alternatives: [[(compound: Compound, child: Bool)]] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      guard alternatives.count < Self.maximumAlternatives else {
        throw Failure(detail: "more than \(Self.maximumAlternatives) alternatives")
      }
      let chain = try Self.chain(String(part))
      guard chain.count <= Self.maximumCompounds else {
        throw Failure(detail: "more than \(Self.maximumCompounds) elements in one alternative")
      }
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
    if let last = chain.last?.compound, last == Compound(tag: "*") {
      throw Failure(detail: "'*' selects every element: end with a tag, .class, #id or [attr]")
    }
    return chain
  }

  /// Whether `element` matches one of the alternatives: its ancestors, from the root down, are
  /// read once.
  package func matches(_ element: HTMLElement) -> Bool {
    var path: [HTMLElement] = [element]
    while let parent = path[path.count - 1].parent { path.append(parent) }
    let plan = Plan(alternatives)
    var known = [Int8](repeating: -1, count: plan.compounds.count)
    return plan.chains.contains { chain in
      var state = State()
      var matched: UInt32 = 0
      for current in path.reversed() {
        var tokens: [String]?
        for index in known.indices { known[index] = -1 }
        matched = plan.matched(current, chain: chain, within: state, known: &known, tokens: &tokens)
        state = state.below(matched)
      }
      return matched & (1 << UInt32(chain.count - 1)) != 0
    }
  }

  /// What an element's ancestors matched, for one alternative: bit `i` of `ancestors` is set
  /// when compounds `0...i` match with `i` on some ancestor; of `parent`, on the parent itself.
  private struct State {
    var ancestors: UInt32 = 0
    var parent: UInt32 = 0

    /// The state of the children of an element that matched `matched`.
    func below(_ matched: UInt32) -> State {
      State(ancestors: ancestors | matched, parent: matched)
    }
  }

  /// The alternatives with their compounds told apart once: a compound that several
  /// alternatives share (`.a` in `.a .b p, .a .c p`) is matched once an element.
  private struct Plan {
    var compounds: [Compound] = []
    var chains: [[(compound: Int, child: Bool)]] = []

    init(_ alternatives: [[(compound: Compound, child: Bool)]]) {
      for chain in alternatives {
        var links: [(compound: Int, child: Bool)] = []
        for link in chain {
          if let known = compounds.firstIndex(of: link.compound) {
            links.append((known, link.child))
          } else {
            compounds.append(link.compound)
            links.append((compounds.count - 1, link.child))
          }
        }
        chains.append(links)
      }
    }

    /// The compounds `0...i` of `chain` (left to right) that match with `i` on `element`, as
    /// bits: the one before it matched the parent (`>`) or an ancestor (a space), and compound
    /// `i` matches the element (asked only then, and once an element: `known`). No ancestor
    /// path is walked twice: linear in the page's size.
    func matched(
      _ element: HTMLElement, chain: [(compound: Int, child: Bool)], within state: State,
      known: inout [Int8], tokens: inout [String]?
    ) -> UInt32 {
      var matched: UInt32 = 0
      for index in chain.indices {
        let link = chain[index]
        if index > 0 {
          let before: UInt32 = 1 << UInt32(index - 1)
          guard (link.child ? state.parent : state.ancestors) & before != 0 else { continue }
        }
        if known[link.compound] < 0 {
          known[link.compound] = compounds[link.compound].matches(element, tokens: &tokens) ? 1 : 0
        }
        if known[link.compound] == 1 { matched |= 1 << UInt32(index) }
      }
      return matched
    }
  }

  /// The elements below `root` it matches, in document order: one walk of the tree, top down,
  /// for all alternatives at once (each distinct compound asked once an element, its classes
  /// split once), within ``maximumWork``.
  package func select(in root: HTMLElement) -> [HTMLElement] {
    let plan = Plan(alternatives)
    let count = plan.chains.count
    let steps = plan.chains.reduce(0) { $0 + $1.count }
    var walks = Self.maximumWork / max(steps, 1)
    // Each level's states, one an alternative: an element at depth `d` reads level `d` (what
    // its parent left) and writes level `d + 1` for its children. A walk in document order
    // never writes a level an element still to come reads before its parent writes it again.
    var levels = [State](repeating: State(), count: 2 * count)
    var known = [Int8](repeating: -1, count: plan.compounds.count)
    var selected = Set<ObjectIdentifier>()
    var stack: [(element: HTMLElement, depth: Int)] = root.elements.reversed().map { ($0, 0) }
    while walks > 0, let (element, depth) = stack.popLast() {
      walks -= 1
      let base = depth * count
      let next = base + count
      if levels.count < next + count {
        levels += [State](repeating: State(), count: next + count - levels.count)
      }
      var tokens: [String]?
      for index in known.indices { known[index] = -1 }
      var chosen = false
      for (index, chain) in plan.chains.enumerated() {
        let state = levels[base + index]
        let matched = plan.matched(
          element, chain: chain, within: state, known: &known, tokens: &tokens)
        if matched & (1 << UInt32(chain.count - 1)) != 0 { chosen = true }
        levels[next + index] = state.below(matched)
      }
      if chosen { selected.insert(ObjectIdentifier(element)) }
      for child in element.elements.reversed() { stack.append((child, depth + 1)) }
    }
    guard !selected.isEmpty else { return [] }
    return root.descendants.filter { selected.contains(ObjectIdentifier($0)) }
  }
}
