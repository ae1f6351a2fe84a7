/// The changes to the read marks since the `read` file was last written (`read-log`): marking or
/// unmarking a few articles writes these few records, not the 100,000 marks; once the log holds
/// ``compactAfter`` changes they are merged into `read` and the log is removed.
///
/// Each record is absolute (a key and its new stamp, or ``ReadMarks/removed``), so applying the
/// log twice changes nothing: a crash between writing `read` and removing the log loses nothing.
struct ReadMarksLog: Equatable {
  static let fileName = StoreLayout.readMarksLog
  /// How many changes the log holds before they are merged into `read`.
  static let compactAfter = 4096

  var changes: [(key: UInt64, stamp: UInt32)] = []

  static func == (lhs: ReadMarksLog, rhs: ReadMarksLog) -> Bool {
    lhs.changes.elementsEqual(rhs.changes) { $0.key == $1.key && $0.stamp == $1.stamp }
  }

  private static let magic = "NRL1"

  var encoded: [UInt8] {
    var writer = BinaryWriter(magic: Self.magic)
    writer.integer(changes.count)
    var bytes = writer.bytes
    for change in changes {
      withUnsafeBytes(of: change.key.littleEndian) { bytes.append(contentsOf: $0) }
      withUnsafeBytes(of: change.stamp.littleEndian) { bytes.append(contentsOf: $0) }
    }
    return bytes
  }

  init() {}

  init(decoding bytes: [UInt8]) throws(BinaryReader.Malformed) {
    guard var reader = BinaryReader(bytes, magic: Self.magic) else {
      throw BinaryReader.Malformed(detail: "not a log of read marks")
    }
    let count = try reader.integer()
    let start = reader.offset
    guard count >= 0, count <= (bytes.count - start) / 12, bytes.count - start == count * 12 else {
      throw BinaryReader.Malformed(detail: "a log of read marks of the wrong length")
    }
    changes.reserveCapacity(count)
    bytes.withUnsafeBytes { raw in
      for index in 0..<count {
        let offset = start + index * 12
        changes.append(
          (
            UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)),
            UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self))
          ))
      }
    }
  }
}
