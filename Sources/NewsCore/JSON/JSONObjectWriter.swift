import FeedParsing
import Foundation

/// An object's members written straight into a pretty document's bytes, as
/// ``JSONValue/write(prettyAt:to:)`` writes the same object built as a tree: no tree of values,
/// no string a value. `sources --json` writes 22 members for each of 10,000 sources.
///
/// Keys are written as they are: they are the program's own names, which need no escape.
public struct JSONObjectWriter: JSONMemberSink {
  private var bytes: [UInt8]
  /// How deep the object sits (its members one level deeper).
  private let depth: Int
  private var isEmpty = true

  private init(bytes: [UInt8], depth: Int) {
    self.bytes = bytes
    self.depth = depth
  }

  /// Appends to `out` the object `build` adds to, indented as a member `depth` levels deep of
  /// a larger pretty document (its first line not indented).
  public static func write(
    prettyAt depth: Int, to out: inout [UInt8], _ build: (inout JSONObjectWriter) -> Void
  ) {
    var writer = JSONObjectWriter(bytes: [], depth: depth)
    // The bytes handed over, not shared: appending to shared bytes would copy them.
    swap(&writer.bytes, &out)
    build(&writer)
    if writer.isEmpty {
      writer.append("{}")
    } else {
      writer.newLine(depth)
      writer.bytes.append(UInt8(ascii: "}"))
    }
    swap(&writer.bytes, &out)
  }

  public mutating func add(_ key: StaticString, _ value: JSONValue) {
    begin(key)
    value.write(prettyAt: depth + 1, to: &bytes)
  }

  public mutating func add(_ key: StaticString, string: String?) {
    begin(key)
    if let string { JSONValue.writeString(string, to: &bytes) } else { null() }
  }

  public mutating func add(_ key: StaticString, int: Int?) {
    begin(key)
    if let int { JSONValue.writeInteger(int, to: &bytes) } else { null() }
  }

  public mutating func add(_ key: StaticString, bool: Bool) {
    begin(key)
    append(bool ? "true" : "false")
  }

  public mutating func add(_ key: StaticString, date: Date?) {
    begin(key)
    guard let date else { return null() }
    bytes.append(UInt8(ascii: "\""))
    ISO8601.write(date, to: &bytes)
    bytes.append(UInt8(ascii: "\""))
  }

  public mutating func add(_ key: StaticString, strings: [String]) {
    begin(key)
    if strings.isEmpty { return append("[]") }
    bytes.append(UInt8(ascii: "["))
    for (index, string) in strings.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      newLine(depth + 2)
      JSONValue.writeString(string, to: &bytes)
    }
    newLine(depth + 1)
    bytes.append(UInt8(ascii: "]"))
  }

  /// The separator before a member, its line, its key and the colon.
  private mutating func begin(_ key: StaticString) {
    assert(key.withUTF8Buffer { !JSONValue.needsEscaping($0) }, "a key to escape: \(key)")
    bytes.append(UInt8(ascii: isEmpty ? "{" : ","))
    isEmpty = false
    newLine(depth + 1)
    bytes.append(UInt8(ascii: "\""))
    append(key)
    append("\": ")
  }

  private mutating func null() {
    append("null")
  }

  /// `text`'s bytes at once (a literal's UTF-8 view was appended a byte at a time).
  private mutating func append(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  private mutating func newLine(_ depth: Int) {
    JSONValue.newLine(depth, to: &bytes)
  }
}
