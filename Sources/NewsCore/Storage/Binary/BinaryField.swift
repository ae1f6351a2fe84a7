/// The kinds of field a compact record holds (``BinaryWriter``, ``BinaryReader``). A record is
/// described once as its fields in order (``BinaryLayout``): skipping it follows from that, and
/// tests hold its writing and reading to it, and the whole to its magic (a change of layout is a
/// new magic, or the test fails).
enum BinaryField: Character, Sendable {
  /// A length-prefixed UTF-8 string.
  case string = "s"
  /// A presence byte, then a string when present.
  case optionalString = "o"
  /// A presence byte, then a time when present.
  case date = "d"
  /// Eight bytes of a finite double.
  case double = "f"
  /// An unsigned LEB128 integer (never negative).
  case integer = "i"
  /// One byte: absent, false or true.
  case flag = "b"
}

/// A record's fields in order, under the magic that names this layout.
struct BinaryLayout: Sendable, Equatable {
  var magic: String
  var fields: [BinaryField]

  /// The layout written as its kinds' letters (`ssso…`), as the frozen table in the tests
  /// writes it.
  var signature: String { String(fields.map(\.rawValue)) }
}

extension BinaryReader {
  /// Moves past a record of `fields` without building it (its strings are checked when read).
  mutating func skip(_ fields: [BinaryField]) throws(Malformed) {
    for field in fields {
      switch field {
      case .string: try skipString()
      case .optionalString: try skipOptionalString()
      case .date: try skipDate()
      case .double: _ = try double()
      case .integer: _ = try integer()
      case .flag: _ = try bool()
      }
    }
  }
}
