import FeedParsing
import Foundation

/// A JSON document with object keys kept in the order they were written.
///
/// The command line's `--json` output is a public contract; building it from this type keeps its
/// key order stable and writes `null` for absent fields instead of leaving them out.
public enum JSONValue: Sendable {
  case null
  case bool(Bool)
  case int(Int)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  /// A string, or `null` when the value is absent.
  public static func string(_ value: String?) -> JSONValue {
    value.map(JSONValue.string) ?? .null
  }

  /// An integer, or `null` when the value is absent.
  public static func int(_ value: Int?) -> JSONValue {
    value.map(JSONValue.int) ?? .null
  }

  /// An ISO 8601 UTC timestamp, or `null` when the date is absent.
  public static func date(_ value: Date?) -> JSONValue {
    value.map { .string(ISO8601.string(from: $0)) } ?? .null
  }

  /// The document as text: indented over several lines when `pretty`, else on one line; then
  /// `ending` (a document of megabytes is not copied again to add its newline).
  public func serialized(pretty: Bool = false, ending: String = "") -> String {
    var out: [UInt8] = []
    write(to: &out, pretty: pretty, indent: 0)
    out.append(contentsOf: ending.utf8)
    return String(decoding: out, as: UTF8.self)
  }

  /// The document indented as a member `depth` levels deep of a larger pretty document (its
  /// first line not indented: it follows a key or the line's indentation): the pieces of a
  /// document too large to build whole, written one after another.
  public func serialized(prettyAt depth: Int) -> String {
    var out: [UInt8] = []
    write(to: &out, pretty: true, indent: depth)
    return String(decoding: out, as: UTF8.self)
  }

  /// ``serialized(prettyAt:)`` appended to `out` as UTF-8: the pieces of a large document
  /// gathered as bytes, not as a string a row (a `String` made and copied for each of 200,000
  /// items of `feed --offline --json`).
  public func write(prettyAt depth: Int, to out: inout [UInt8]) {
    write(to: &out, pretty: true, indent: depth)
  }

  /// Written as UTF-8 bytes, not appended to a `String`: that was a quarter of `sources --json`
  /// at 10,000 sources.
  private func write(to out: inout [UInt8], pretty: Bool, indent: Int) {
    switch self {
    case .null: out.append(contentsOf: "null".utf8)
    case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
    case .int(let value): Self.writeInteger(value, to: &out)
    case .string(let value): JSONValue.writeString(value, to: &out)
    case .array(let items):
      if items.isEmpty {
        out.append(contentsOf: "[]".utf8)
        return
      }
      out.append(UInt8(ascii: "["))
      for (index, item) in items.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        if pretty { Self.newLine(indent + 1, to: &out) }
        item.write(to: &out, pretty: pretty, indent: indent + 1)
      }
      if pretty { Self.newLine(indent, to: &out) }
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      if members.isEmpty {
        out.append(contentsOf: "{}".utf8)
        return
      }
      out.append(UInt8(ascii: "{"))
      for (index, (key, value)) in members.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        if pretty { Self.newLine(indent + 1, to: &out) }
        JSONValue.writeString(key, to: &out)
        out.append(UInt8(ascii: ":"))
        if pretty { out.append(UInt8(ascii: " ")) }
        value.write(to: &out, pretty: pretty, indent: indent + 1)
      }
      if pretty { Self.newLine(indent, to: &out) }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// `value`'s decimal digits, as `String(value)` writes them, without making that string.
  static func writeInteger(_ value: Int, to out: inout [UInt8]) {
    if value < 0 { out.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    let start = out.count
    repeat {
      out.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
      magnitude /= 10
    } while magnitude > 0
    out[start...].reverse()
  }

  /// A line break, then `indent` levels of two spaces: one copy from a line of spaces for the
  /// depths documents have, not a sequence of repeated spaces appended.
  static func newLine(_ indent: Int, to out: inout [UInt8]) {
    let width = 1 + 2 * indent
    let line: StaticString = "\n                "
    if width <= line.utf8CodeUnitCount {
      line.withUTF8Buffer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<width])) }
    } else {
      out.append(0x0A)
      out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }
  }

  /// Whether `value` holds anything written as an escape below: controls, quote, backslash,
  /// DEL, C1 controls (UTF-8 C2 80–9F), U+2028 and U+2029 (E2 80 A8/A9).
  static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    // Over the contiguous bytes: iterating the string's UTF-8 view was a tenth of writing
    // `feed --offline --json` at 200,000 items. Eight bytes at a time where they are plain
    // ASCII: a byte at a time was still an eighth of it.
    var index = 0
    var previous: UInt8 = 0
    var beforePrevious: UInt8 = 0
    while index < bytes.count {
      let plain = ASCIIWord.endOfPrintable(in: bytes, from: index, orQuotes: true)
      if plain > index {
        // A C1 control's or U+2028's later bytes are not ASCII: plain bytes end nothing begun.
        (previous, beforePrevious) = (0, 0)
        index = plain
      }
      let stop = min(index + 8, bytes.count)
      while index < stop {
        let byte = bytes[index]
        if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F { return true }
        if previous == 0xC2, (0x80...0x9F).contains(byte) { return true }
        if beforePrevious == 0xE2, previous == 0x80, byte == 0xA8 || byte == 0xA9 { return true }
        beforePrevious = previous
        previous = byte
        index += 1
      }
    }
    return false
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  static func writeString(_ value: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    var contiguous = value
    let written = contiguous.withUTF8 { bytes in
      // The common case, written at once from the string's own bytes (a search's output is
      // hundreds of articles; appending its UTF-8 view went a byte at a time).
      guard !needsEscaping(bytes) else { return false }
      out.append(contentsOf: bytes)
      return true
    }
    if written {
      out.append(UInt8(ascii: "\""))
      return
    }
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": out.append(contentsOf: #"\""#.utf8)
      case "\\": out.append(contentsOf: #"\\"#.utf8)
      case "\n": out.append(contentsOf: #"\n"#.utf8)
      case "\r": out.append(contentsOf: #"\r"#.utf8)
      case "\t": out.append(contentsOf: #"\t"#.utf8)
      case "\u{08}": out.append(contentsOf: #"\b"#.utf8)
      case "\u{0C}": out.append(contentsOf: #"\f"#.utf8)
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
          || scalar.value == 0x2028 || scalar.value == 0x2029
        {
          // `\u` and four lower-case hex digits.
          out.append(contentsOf: #"\u"#.utf8)
          for shift in stride(from: 12, through: 0, by: -4) {
            out.append(hexDigits[Int(scalar.value >> UInt32(shift)) & 0xF])
          }
        } else {
          UTF8.encode(scalar) { out.append($0) }
        }
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}
