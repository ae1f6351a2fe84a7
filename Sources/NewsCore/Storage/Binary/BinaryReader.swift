import Foundation

/// Reads what ``BinaryWriter`` wrote; every read is bounds-checked and throws on a short or
/// malformed record instead of trapping.
struct BinaryReader {
  /// The record is not what the writer writes.
  struct Malformed: Error, Equatable {
    var detail: String
  }

  private let bytes: [UInt8]
  private var index: Int
  /// The kinds read, in order, when tracing (tests hold a record to its layout).
  var trace: [BinaryField]?

  /// A reader of `bytes` if they start with `magic`, else `nil`.
  init?(_ bytes: [UInt8], magic: String) {
    let prefix = Array(magic.utf8)
    guard bytes.starts(with: prefix) else { return nil }
    self.bytes = bytes
    index = prefix.count
  }

  var isAtEnd: Bool { index == bytes.count }

  /// Where the next read starts.
  var offset: Int { index }

  /// The bytes in `range` (offsets earlier reads returned), as they are.
  func bytes(_ range: Range<Int>) -> ArraySlice<UInt8> { bytes[range] }

  /// Moves to `offset` (one that an earlier read returned).
  mutating func seek(to offset: Int) { index = min(max(offset, 0), bytes.count) }

  /// Length-prefixed raw bytes, as their range in the bytes read.
  mutating func dataRange() throws(Malformed) -> Range<Int> {
    let count = try length()
    guard count <= bytes.count - index else { throw Malformed(detail: "bytes past the end") }
    defer { index += count }
    return index..<(index + count)
  }

  mutating func integer() throws(Malformed) -> Int {
    trace?.append(.integer)
    return try length()
  }

  /// An unsigned integer, untraced (a length, part of another field).
  private mutating func length() throws(Malformed) -> Int {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard index < bytes.count, shift < 63 else { throw Malformed(detail: "bad integer") }
      let byte = bytes[index]
      index += 1
      value |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 == 0 { break }
      shift += 7
    }
    guard value <= UInt64(Int.max) else { throw Malformed(detail: "integer too large") }
    return Int(value)
  }

  mutating func string() throws(Malformed) -> String {
    trace?.append(.string)
    let count = try length()
    guard count <= bytes.count - index else { throw Malformed(detail: "string past the end") }
    let slice = bytes[index..<(index + count)]
    index += count
    guard let text = Self.validatedUTF8(slice) else {
      throw Malformed(detail: "string not UTF-8")
    }
    return text
  }

  /// ``string()``, or `previous` itself when the bytes are the same: the items of one entry
  /// name their source each, and 200,000 copies of a few thousand names were each a string made.
  mutating func string(sameAs previous: String?) throws(Malformed) -> String {
    guard var previous else { return try string() }
    trace?.append(.string)
    let count = try length()
    guard count <= bytes.count - index else { throw Malformed(detail: "string past the end") }
    let same = previous.withUTF8 { known in
      known.count == count
        && bytes.withUnsafeBufferPointer { all in
          count == 0 || memcmp(known.baseAddress!, all.baseAddress! + index, count) == 0
        }
    }
    if same {
      index += count
      return previous
    }
    let slice = bytes[index..<(index + count)]
    index += count
    guard let text = Self.validatedUTF8(slice) else {
      throw Malformed(detail: "string not UTF-8")
    }
    return text
  }

  /// The string `bytes` hold, when they are UTF-8. Decoding repairs what is not UTF-8: the same
  /// bytes back mean there was nothing to repair. (`String(validating:as:)` reads a slice one
  /// code unit at a time: a twentieth of reading the cache.)
  static func validatedUTF8(_ bytes: ArraySlice<UInt8>) -> String? {
    bytes.withUnsafeBufferPointer { buffer in
      var text = String(decoding: buffer, as: UTF8.self)
      let same = text.withUTF8 { decoded in
        decoded.count == buffer.count
          && (buffer.isEmpty
            || memcmp(decoded.baseAddress!, buffer.baseAddress!, buffer.count) == 0)
      }
      return same ? text : nil
    }
  }

  /// Moves past a string without building it (nor checking its UTF-8).
  mutating func skipString() throws(Malformed) {
    _ = try dataRange()
  }

  /// Moves past an optional string without building it.
  mutating func skipOptionalString() throws(Malformed) {
    if try present() { try skipString() }
  }

  /// Moves past an optional date.
  mutating func skipDate() throws(Malformed) {
    if try present() { _ = try double() }
  }

  mutating func optionalString() throws(Malformed) -> String? {
    trace?.append(.optionalString)
    return try untraced { reader throws(Malformed) in
      try reader.present() ? try reader.string() : nil
    }
  }

  mutating func double() throws(Malformed) -> Double {
    trace?.append(.double)
    guard bytes.count - index >= 8 else { throw Malformed(detail: "number past the end") }
    var bits: UInt64 = 0
    for offset in 0..<8 { bits |= UInt64(bytes[index + offset]) << (8 * UInt64(offset)) }
    index += 8
    // Only times are stored as doubles: NaN and infinities are never written (found by fuzzing).
    let value = Double(bitPattern: bits)
    guard value.isFinite else { throw Malformed(detail: "not a finite number") }
    return value
  }

  mutating func date() throws(Malformed) -> Date? {
    trace?.append(.date)
    return try untraced { reader throws(Malformed) in
      try reader.present() ? Date(timeIntervalSince1970: try reader.double()) : nil
    }
  }

  /// Reads the parts of one field without tracing them.
  private mutating func untraced<T>(_ read: (inout BinaryReader) throws(Malformed) -> T)
    throws(Malformed) -> T
  {
    let tracing = trace
    trace = nil
    defer { trace = tracing }
    return try read(&self)
  }

  mutating func bool() throws(Malformed) -> Bool? {
    trace?.append(.flag)
    switch try byte() {
    case 0: return nil
    case 1: return false
    case 2: return true
    default: throw Malformed(detail: "bad flag")
    }
  }

  private mutating func present() throws(Malformed) -> Bool {
    switch try byte() {
    case 0: return false
    case 1: return true
    default: throw Malformed(detail: "bad presence byte")
    }
  }

  private mutating func byte() throws(Malformed) -> UInt8 {
    guard index < bytes.count else { throw Malformed(detail: "record past the end") }
    defer { index += 1 }
    return bytes[index]
  }
}
