import Foundation

/// Writes the store's compact record format: unsigned LEB128 integers, length-prefixed UTF-8
/// strings, a presence byte before optional values, doubles as their 8 bytes (little-endian).
///
/// Files in this format are read many at a time (200 feed caches on every `news feed`), where
/// `JSONDecoder` spent most of the time; the format is an implementation detail inside the
/// encrypted envelope, marked by a 4-byte magic so that older JSON files still read.
struct BinaryWriter {
  private(set) var bytes: [UInt8] = []

  init(magic: String) {
    bytes.append(contentsOf: magic.utf8)
  }

  mutating func integer(_ value: Int) {
    var rest = UInt64(max(0, value))
    repeat {
      let low = UInt8(rest & 0x7F)
      rest >>= 7
      bytes.append(rest == 0 ? low : low | 0x80)
    } while rest != 0
  }

  mutating func string(_ value: String) {
    integer(value.utf8.count)
    bytes.append(contentsOf: value.utf8)
  }

  /// Length-prefixed raw bytes.
  mutating func data(_ value: [UInt8]) {
    integer(value.count)
    bytes.append(contentsOf: value)
  }

  /// Bytes another writer wrote, as they are.
  mutating func raw(_ written: ArraySlice<UInt8>) {
    bytes.append(contentsOf: written)
  }

  mutating func string(_ value: String?) {
    guard let value else { return bytes.append(0) }
    bytes.append(1)
    string(value)
  }

  mutating func double(_ value: Double) {
    var bits = value.bitPattern.littleEndian
    withUnsafeBytes(of: &bits) { bytes.append(contentsOf: $0) }
  }

  mutating func date(_ value: Date?) {
    guard let value else { return bytes.append(0) }
    bytes.append(1)
    double(value.timeIntervalSince1970)
  }

  mutating func bool(_ value: Bool?) {
    bytes.append(value.map { $0 ? 2 : 1 } ?? 0)
  }
}
