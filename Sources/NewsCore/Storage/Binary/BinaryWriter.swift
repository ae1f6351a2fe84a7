import Foundation

/// Writes the store's compact record format: unsigned LEB128 integers, length-prefixed UTF-8
/// strings, a presence byte before optional values, doubles as their 8 bytes (little-endian).
///
/// Files in this format are read many at a time (200 feed caches on every `news feed`), where
/// `JSONDecoder` spent most of the time; the format is an implementation detail inside the
/// encrypted envelope, marked by a 4-byte magic so that older JSON files still read.
///
/// A value the format cannot hold (a negative integer, a number that is not finite) is never
/// turned into another: it is ``problem``, and ``checked()`` refuses the record.
struct BinaryWriter {
  private(set) var bytes: [UInt8] = []
  /// The first value the format cannot hold, if any.
  private(set) var problem: String?
  /// The kinds written, in order, when tracing (tests hold a record to its layout).
  var trace: [BinaryField]?

  init(magic: String) {
    bytes.append(contentsOf: magic.utf8)
  }

  /// The bytes, or why they are not a record (a value the format cannot hold).
  func checked() throws(BinaryReader.Malformed) -> [UInt8] {
    if let problem { throw BinaryReader.Malformed(detail: problem) }
    return bytes
  }

  /// Marks the record as not one (a part of it could not be written).
  mutating func fail(_ problem: String) {
    if self.problem == nil { self.problem = problem }
  }

  mutating func integer(_ value: Int) {
    trace?.append(.integer)
    if value < 0 { fail("a negative integer (\(value))") }
    var rest = UInt64(max(0, value))
    repeat {
      let low = UInt8(rest & 0x7F)
      rest >>= 7
      bytes.append(rest == 0 ? low : low | 0x80)
    } while rest != 0
  }

  mutating func string(_ value: String) {
    trace?.append(.string)
    appendLength(value.utf8.count)
    bytes.append(contentsOf: value.utf8)
  }

  /// Length-prefixed raw bytes.
  mutating func data(_ value: [UInt8]) {
    appendLength(value.count)
    bytes.append(contentsOf: value)
  }

  /// A length, untraced (part of a string or bytes).
  private mutating func appendLength(_ count: Int) {
    let tracing = trace
    trace = nil
    integer(count)
    trace = tracing
  }

  /// Bytes another writer wrote, as they are.
  mutating func raw(_ written: ArraySlice<UInt8>) {
    bytes.append(contentsOf: written)
  }

  /// A presence byte, then the string when there is one: a field of its own kind, never
  /// written by ``string(_:)`` (making a field optional changes the layout, and its magic).
  mutating func optionalString(_ value: String?) {
    trace?.append(.optionalString)
    guard let value else { return bytes.append(0) }
    bytes.append(1)
    untraced { $0.string(value) }
  }

  mutating func double(_ value: Double) {
    trace?.append(.double)
    if !value.isFinite { fail("a number that is not finite (\(value))") }
    var bits = value.bitPattern.littleEndian
    withUnsafeBytes(of: &bits) { bytes.append(contentsOf: $0) }
  }

  mutating func date(_ value: Date?) {
    trace?.append(.date)
    guard let value else { return bytes.append(0) }
    bytes.append(1)
    untraced { $0.double(value.timeIntervalSince1970) }
  }

  mutating func bool(_ value: Bool?) {
    trace?.append(.flag)
    bytes.append(value.map { $0 ? 2 : 1 } ?? 0)
  }

  /// Writes the parts of one field without tracing them.
  private mutating func untraced(_ write: (inout BinaryWriter) -> Void) {
    let tracing = trace
    trace = nil
    write(&self)
    trace = tracing
  }
}
