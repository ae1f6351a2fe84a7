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

  /// The document as text: indented over several lines when `pretty`, else on one line.
  public func serialized(pretty: Bool = false) -> String {
    var out = ""
    write(to: &out, pretty: pretty, indent: 0)
    return out
  }

  /// The document indented as a member `depth` levels deep of a larger pretty document (its
  /// first line not indented: it follows a key or the line's indentation): the pieces of a
  /// document too large to build whole, written one after another.
  public func serialized(prettyAt depth: Int) -> String {
    var out = ""
    write(to: &out, pretty: true, indent: depth)
    return out
  }

  private func write(to out: inout String, pretty: Bool, indent: Int) {
    switch self {
    case .null: out += "null"
    case .bool(let value): out += value ? "true" : "false"
    case .int(let value): out += String(value)
    case .string(let value): JSONValue.writeString(value, to: &out)
    case .array(let items):
      if items.isEmpty {
        out += "[]"
        return
      }
      out += "["
      for (index, item) in items.enumerated() {
        if index > 0 { out += "," }
        if pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
        item.write(to: &out, pretty: pretty, indent: indent + 1)
      }
      if pretty { out += "\n" + String(repeating: "  ", count: indent) }
      out += "]"
    case .object(let members):
      if members.isEmpty {
        out += "{}"
        return
      }
      out += "{"
      for (index, (key, value)) in members.enumerated() {
        if index > 0 { out += "," }
        if pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
        JSONValue.writeString(key, to: &out)
        out += pretty ? ": " : ":"
        value.write(to: &out, pretty: pretty, indent: indent + 1)
      }
      if pretty { out += "\n" + String(repeating: "  ", count: indent) }
      out += "}"
    }
  }

  /// Whether `value` holds anything written as an escape below: controls, quote, backslash,
  /// DEL, C1 controls (UTF-8 C2 80–9F), U+2028 and U+2029 (E2 80 A8/A9).
  private static func needsEscaping(_ value: String) -> Bool {
    var value = value
    // Over the contiguous bytes: iterating the string's UTF-8 view was a tenth of writing
    // `feed --offline --json` at 200,000 items.
    return value.withUTF8 { bytes in
      var previous: UInt8 = 0
      var beforePrevious: UInt8 = 0
      for byte in bytes {
        if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F { return true }
        if previous == 0xC2, (0x80...0x9F).contains(byte) { return true }
        if beforePrevious == 0xE2, previous == 0x80, byte == 0xA8 || byte == 0xA9 { return true }
        beforePrevious = previous
        previous = byte
      }
      return false
    }
  }

  private static func writeString(_ value: String, to out: inout String) {
    out += "\""
    if !needsEscaping(value) {
      // The common case, written at once (a search's output is hundreds of articles).
      out += value
      out += "\""
      return
    }
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
          || scalar.value == 0x2028 || scalar.value == 0x2029
        {
          out += String(format: "\\u%04x", scalar.value)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }
}
