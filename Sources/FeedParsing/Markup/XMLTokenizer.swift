/// One piece of an XML document, as ``XMLTokenizer`` reads it.
package enum XMLToken: Equatable {
  /// `<name a="1">` (or `<name/>`, with `selfClosing`).
  case start(XMLStartTag)
  /// `</name>`.
  case end(name: String)
  /// Character data, entity and character references decoded.
  case text(String)
  /// The inside of `<![CDATA[…]]>`, as written.
  case cdata(String)
}

/// A start tag: its name as written and its attributes (values decoded), in order.
package struct XMLStartTag: Equatable {
  package var name: String
  package var attributes: [XMLAttribute] = []
  package var selfClosing = false

  /// The value of the first attribute called `name` (compared without case).
  package func attribute(_ name: String) -> String? {
    attributes.first { $0.name.lowercased() == name }?.value
  }
}

/// One attribute of a start tag.
package struct XMLAttribute: Equatable {
  package var name: String
  package var value: String
}

/// A streaming, forgiving tokenizer for the XML that feeds are written in: it reads UTF-8 bytes
/// left to right once and never builds a tree, never fails and never gives up.
///
/// What the web gets wrong is read as a browser would: HTML's named entities (`&nbsp;`,
/// `&mdash;`) are known, an `&` that starts no reference is a literal `&`, a `<` that starts no
/// tag is a literal `<`, an attribute without quotes or without a value is read, and a document
/// cut short ends where it ends (the caller sees the elements left open). Comments, processing
/// instructions and the DOCTYPE (with its internal subset) are skipped: no entity declared by the
/// document and no external entity is ever expanded, so no XXE and no entity bomb; an undeclared
/// reference stays as written.
///
/// Linear in the document: every byte is looked at a bounded number of times, and an element
/// keeps at most ``maximumAttributes`` attributes (the rest are counted in
/// ``droppedAttributes`` and left out).
package struct XMLTokenizer {
  /// Attributes kept on one element; feeds need a handful.
  package static let maximumAttributes = 64

  private let bytes: [UInt8]
  private var index = 0
  /// Attributes left out for being past ``maximumAttributes``.
  private(set) var droppedAttributes = 0

  /// A tokenizer over a UTF-8 document.
  package init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Where the next token starts, in bytes.
  package var offset: Int { index }

  /// The 1-based line of the byte at `offset` (for messages; counts newlines, so linear).
  package func line(at offset: Int) -> Int {
    1 + bytes[..<min(offset, bytes.count)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
  }

  /// The next token, or `nil` at the end of the document.
  package mutating func next() -> XMLToken? {
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "<") {
        switch markup() {
        case .token(let token): return token
        case .skipped: continue
        case .notMarkup: break
        }
      }
      return text()
    }
    return nil
  }

  private enum Markup {
    case token(XMLToken)
    case skipped
    case notMarkup
  }

  /// Reads the markup at `index` (a `<`).
  private mutating func markup() -> Markup {
    let next = index + 1
    guard next < bytes.count else { return .notMarkup }
    let byte = bytes[next]
    if Self.isNameStart(byte) { return .token(.start(startTag())) }
    if byte == UInt8(ascii: "/"), next + 1 < bytes.count, Self.isNameStart(bytes[next + 1]) {
      return .token(endTag())
    }
    if byte == UInt8(ascii: "!") {
      if matches("<!--", at: index) {
        index = after("-->", from: index + 4)
        return .skipped
      }
      if matches("<![CDATA[", at: index) {
        let start = index + 9
        let end = find("]]>", from: start) ?? bytes.count
        index = min(end + 3, bytes.count)
        return .token(.cdata(String(decoding: bytes[start..<end], as: UTF8.self)))
      }
      if matchesIgnoringCase("<!doctype", at: index) {
        skipDoctype()
        return .skipped
      }
      index = after(">", from: next)
      return .skipped
    }
    if byte == UInt8(ascii: "?") {
      index = after("?>", from: next + 1)
      return .skipped
    }
    return .notMarkup
  }

  /// Character data up to the next markup; a `<` that starts none is part of it.
  private mutating func text() -> XMLToken {
    let start = index
    index += 1
    while index < bytes.count {
      if let found = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
        index = found
        if startsMarkup(at: found) { break }
        index += 1
      } else {
        index = bytes.count
      }
    }
    return .text(Self.decodingReferences(bytes[start..<index]))
  }

  private func startsMarkup(at position: Int) -> Bool {
    guard position + 1 < bytes.count else { return false }
    let byte = bytes[position + 1]
    return Self.isNameStart(byte) || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?")
      || (byte == UInt8(ascii: "/") && position + 2 < bytes.count
        && Self.isNameStart(bytes[position + 2]))
  }

  private mutating func startTag() -> XMLStartTag {
    index += 1
    var tag = XMLStartTag(name: name())
    while index < bytes.count {
      let byte = bytes[index]
      if Self.isSpace(byte) {
        index += 1
      } else if byte == UInt8(ascii: ">") {
        index += 1
        return tag
      } else if byte == UInt8(ascii: "/") {
        index += 1
        if index < bytes.count, bytes[index] == UInt8(ascii: ">") {
          index += 1
          tag.selfClosing = true
          return tag
        }
      } else if byte == UInt8(ascii: "<") {
        // A tag left open before the next one: end it here.
        return tag
      } else {
        let attribute = self.attribute()
        if tag.attributes.count < Self.maximumAttributes {
          tag.attributes.append(attribute)
        } else {
          droppedAttributes += 1
        }
      }
    }
    return tag
  }

  private mutating func attribute() -> XMLAttribute {
    let start = index
    while index < bytes.count, !Self.endsName(bytes[index]), bytes[index] != UInt8(ascii: "=") {
      index += 1
    }
    if index == start { index += 1 }  // a stray `=`: skip it
    let name = String(decoding: bytes[start..<index], as: UTF8.self)
    var cursor = index
    while cursor < bytes.count, Self.isSpace(bytes[cursor]) { cursor += 1 }
    guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") else {
      return XMLAttribute(name: name, value: "")
    }
    cursor += 1
    while cursor < bytes.count, Self.isSpace(bytes[cursor]) { cursor += 1 }
    index = cursor
    guard cursor < bytes.count else { return XMLAttribute(name: name, value: "") }
    let quote = bytes[cursor]
    let valueStart: Int
    let valueEnd: Int
    if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
      valueStart = cursor + 1
      valueEnd = bytes[valueStart...].firstIndex(of: quote) ?? bytes.count
      index = min(valueEnd + 1, bytes.count)
    } else {
      valueStart = cursor
      while index < bytes.count, !Self.isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") {
        index += 1
      }
      valueEnd = index
    }
    return XMLAttribute(name: name, value: Self.decodingReferences(bytes[valueStart..<valueEnd]))
  }

  private mutating func endTag() -> XMLToken {
    index += 2
    let name = self.name()
    index = after(">", from: index)
    return .end(name: name)
  }

  private mutating func name() -> String {
    let start = index
    while index < bytes.count, !Self.endsName(bytes[index]) { index += 1 }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  /// `<!DOCTYPE …>`, with an internal subset in brackets (whose declarations may hold `>`).
  private mutating func skipDoctype() {
    var cursor = index + 9
    while cursor < bytes.count {
      let byte = bytes[cursor]
      if byte == UInt8(ascii: "[") {
        cursor = after("]", from: cursor + 1)
        continue
      }
      cursor += 1
      if byte == UInt8(ascii: ">") { break }
    }
    index = cursor
  }

  private func matches(_ literal: StaticString, at position: Int) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard position + count <= bytes.count else { return false }
    return literal.withUTF8Buffer { pattern in
      (0..<count).allSatisfy { bytes[position + $0] == pattern[$0] }
    }
  }

  private func matchesIgnoringCase(_ literal: StaticString, at position: Int) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard position + count <= bytes.count else { return false }
    return literal.withUTF8Buffer { pattern in
      (0..<count).allSatisfy { bytes[position + $0] | 0x20 == pattern[$0] | 0x20 }
    }
  }

  /// Where `literal` next starts at or after `position`.
  private func find(_ literal: StaticString, from position: Int) -> Int? {
    let first = literal.withUTF8Buffer { $0[0] }
    var cursor = position
    while cursor < bytes.count, let found = bytes[cursor...].firstIndex(of: first) {
      if matches(literal, at: found) { return found }
      cursor = found + 1
    }
    return nil
  }

  /// Just past the next `literal` at or after `position`, or the end of the document.
  private func after(_ literal: StaticString, from position: Int) -> Int {
    guard let found = find(literal, from: position) else { return bytes.count }
    return found + literal.utf8CodeUnitCount
  }

  /// White space, `>`, `/` and `<` end a tag's or an attribute's name.
  private static func endsName(_ byte: UInt8) -> Bool {
    isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
      || byte == UInt8(ascii: "<")
  }

  package static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  /// Letters, `_`, `:` and anything beyond ASCII start a name.
  package static func isNameStart(_ byte: UInt8) -> Bool {
    (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
      || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte >= 0xC0
  }

  /// The text of `bytes` with `&amp;`, `&#233;`, `&#xE9;` and HTML's named references decoded;
  /// anything else after an `&` stays as written. Numeric references to 0x80…0x9F mean what
  /// Windows-1252 puts there (as browsers read them); to nothing valid, U+FFFD. References that
  /// spell out the bytes of one UTF-8 character with a C1 control among them
  /// (`&#226;&#128;&#166;`: UTF-8 read as Latin-1, then escaped) are that character (`…`, not
  /// `â€¦`), as feedparser reads them.
  /// With `nbspAsSpace`, `&nbsp;` is a plain space (for text made from HTML).
  package static func decodingReferences(_ bytes: ArraySlice<UInt8>, nbspAsSpace: Bool = false)
    -> String
  {
    guard var ampersand = bytes.firstIndex(of: UInt8(ascii: "&")) else {
      return String(decoding: bytes, as: UTF8.self)
    }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var kept = bytes.startIndex
    while true {
      if let (scalar, end, code) = reference(in: bytes, at: ampersand) {
        out += bytes[kept..<ampersand]
        kept = end
        if (0xC2...0xF4).contains(code),
          let (sequence, after) = escapedUTF8(lead: code, in: bytes, from: end)
        {
          out += sequence
          kept = after
        } else if nbspAsSpace, scalar == "\u{00A0}", bytes[ampersand + 1] == UInt8(ascii: "n") {
          out.append(0x20)
        } else {
          out += UTF8.encode(scalar)!
        }
      }
      // Past what was decoded: a sequence's references are not read again.
      let from = max(ampersand + 1, kept)
      guard let next = bytes[from...].firstIndex(of: UInt8(ascii: "&")) else { break }
      ampersand = next
    }
    out += bytes[kept...]
    return String(decoding: out, as: UTF8.self)
  }

  /// The bytes of the UTF-8 character whose lead byte a reference spelled out (`lead`,
  /// 0xC2…0xF4) when the references from `start` spell out its continuation bytes, one after
  /// another (each 0x80…0xBF, one at least a C1 control's 0x80…0x9F, valid together; numeric,
  /// or named as Latin-1 names them: `&acirc;&#128;&brvbar;`), and the index just past the
  /// last; `nil` otherwise.
  private static func escapedUTF8(lead: UInt32, in bytes: ArraySlice<UInt8>, from start: Int)
    -> ([UInt8], Int)?
  {
    var sequence = [UInt8(lead)]
    var end = start
    for _ in 0..<(lead < 0xE0 ? 1 : lead < 0xF0 ? 2 : 3) {
      guard end < bytes.endIndex, bytes[end] == UInt8(ascii: "&"),
        let (value, next) = latin1Reference(in: bytes, at: end), (0x80...0xBF).contains(value)
      else { return nil }
      sequence.append(UInt8(value))
      end = next
    }
    // A C1 control among them (no text has one) says the bytes were escaped by mistake:
    // `&Eacute;&nbsp;` is É and a space, not `ɠ`.
    guard sequence.contains(where: { (0x80...0x9F).contains($0) }),
      String(validating: sequence, as: UTF8.self) != nil
    else { return nil }
    return (sequence, end)
  }

  /// The code point of the reference starting at `position` (an `&`) when it is numeric
  /// (`&#226;`, `&#xE2;`) or a name of Latin-1's (`&acirc;`), and the index just past its `;`.
  private static func latin1Reference(in bytes: ArraySlice<UInt8>, at position: Int) -> (
    UInt32, Int
  )? {
    if let numeric = numericReference(in: bytes, at: position) { return numeric }
    let limit = min(bytes.endIndex, position + 10)
    guard position + 1 < bytes.endIndex, isNameStart(bytes[position + 1]),
      let semicolon = bytes[position..<limit].firstIndex(of: UInt8(ascii: ";")),
      let scalar = HTMLEntities.scalar(
        named: Substring(decoding: bytes[(position + 1)..<semicolon], as: UTF8.self)),
      scalar.value <= 0xFF
    else { return nil }
    return (scalar.value, semicolon + 1)
  }

  /// The value of the numeric reference (`&#226;`, `&#xE2;`) starting at `position` (an `&`),
  /// and the index just past its `;`.
  private static func numericReference(in bytes: ArraySlice<UInt8>, at position: Int) -> (
    UInt32, Int
  )? {
    guard position + 2 < bytes.endIndex, bytes[position + 1] == UInt8(ascii: "#") else {
      return nil
    }
    let limit = min(bytes.endIndex, position + 34)
    guard let semicolon = bytes[position..<limit].firstIndex(of: UInt8(ascii: ";")) else {
      return nil
    }
    let digits = bytes[(position + 2)..<semicolon]
    let hex = digits.first.map { $0 | 0x20 == UInt8(ascii: "x") } ?? false
    let text = String(decoding: hex ? digits.dropFirst() : digits, as: UTF8.self)
    guard !text.isEmpty, text.count <= 8, let value = UInt32(text, radix: hex ? 16 : 10) else {
      return nil
    }
    return (value, semicolon + 1)
  }

  /// The reference starting at `position` (an `&`), the index just past its `;`, and the code
  /// point it names as written (`&#150;` is 150, though it reads as Windows-1252's `–`).
  private static func reference(
    in bytes: ArraySlice<UInt8>, at position: Int
  ) -> (Unicode.Scalar, Int, UInt32)? {
    let limit = min(bytes.endIndex, position + 34)
    guard let semicolon = bytes[position..<limit].firstIndex(of: UInt8(ascii: ";")),
      semicolon > position + 1
    else { return nil }
    let body = bytes[(position + 1)..<semicolon]
    if body.first == UInt8(ascii: "#") {
      guard let (value, _) = numericReference(in: bytes, at: position) else { return nil }
      if (0x80...0x9F).contains(value) {
        return (FeedCharset.windows1252(UInt8(value)), semicolon + 1, value)
      }
      let scalar = value == 0 ? nil : Unicode.Scalar(value)
      return (scalar ?? "\u{FFFD}", semicolon + 1, value)
    }
    guard body.allSatisfy({ isNameStart($0) || ($0 >= 0x30 && $0 <= 0x39) }),
      let scalar = HTMLEntities.scalar(named: Substring(decoding: body, as: UTF8.self))
    else { return nil }
    return (scalar, semicolon + 1, scalar.value)
  }
}
