import Foundation

/// The feed cache's index (`feeds`): where each source's entry is (its bundle and its place
/// there) and the entry's summary, all `news sources` needs of it; and the next bundle's number.
struct FeedCacheIndex: Sendable, Equatable {
  /// One source's entry.
  struct Entry: Sendable, Equatable {
    /// The number of its bundle (`feeds-<n>`).
    var bundle: Int
    /// Where it is in it.
    var place: SealedBundle.Place
    /// The entry without its items, as ``FeedCacheEntry/encoded()`` writes one.
    var summary: [UInt8]
  }

  /// The number the next bundle is given (numbers are never reused).
  var next = 0
  /// Each source's entry, by source name.
  var entries: [String: Entry] = [:]

  static let magic = "NFI1"
  /// The index, described once: the next number and a count of entries, each a source name, its
  /// bundle, its place (index, count, offset, length), then its summary's bytes.
  static let layout = BinaryLayout(
    magic: magic, fields: [.string, .integer, .integer, .integer, .integer, .integer])

  /// How many entries each bundle still holds, by number.
  var liveCounts: [Int: Int] {
    var counts: [Int: Int] = [:]
    for entry in entries.values { counts[entry.bundle, default: 0] += 1 }
    return counts
  }

  /// The index in the compact format of ``BinaryWriter``, sources in name order.
  func encoded() throws(BinaryReader.Malformed) -> [UInt8] {
    var writer = BinaryWriter(magic: Self.magic)
    writer.integer(next)
    writer.integer(entries.count)
    for (source, entry) in entries.sorted(by: { $0.key < $1.key }) {
      writer.string(source)
      writer.integer(entry.bundle)
      writer.integer(entry.place.index)
      writer.integer(entry.place.count)
      writer.integer(entry.place.offset)
      writer.integer(entry.place.length)
      writer.data(entry.summary)
    }
    return try writer.checked()
  }

  /// Reads an index ``encoded()`` wrote.
  static func decode(_ bytes: [UInt8]) throws(BinaryReader.Malformed) -> FeedCacheIndex {
    guard var reader = BinaryReader(bytes, magic: magic) else {
      throw BinaryReader.Malformed(detail: "not a feed cache index")
    }
    var index = FeedCacheIndex(next: try reader.integer())
    let count = try reader.integer()
    index.entries.reserveCapacity(min(count, 1_000_000))
    for _ in 0..<count {
      let source = try reader.string()
      let bundle = try reader.integer()
      let place = SealedBundle.Place(
        index: try reader.integer(), count: try reader.integer(), offset: try reader.integer(),
        length: try reader.integer())
      let summary = Array(reader.bytes(try reader.dataRange()))
      index.entries[source] = Entry(bundle: bundle, place: place, summary: summary)
    }
    guard reader.isAtEnd else { throw BinaryReader.Malformed(detail: "bytes after the index") }
    return index
  }

  /// A bundle's record: `NFR1`, the source's name, then its entry's bytes.
  static let recordMagic = "NFR1"

  /// The record of `source`'s entry `bytes` in a bundle.
  static func record(_ source: String, _ bytes: [UInt8]) -> [UInt8] {
    var writer = BinaryWriter(magic: recordMagic)
    writer.string(source)
    writer.raw(bytes[...])
    return writer.bytes
  }

  /// The source and the entry's bytes of a bundle's `record`.
  static func parse(record: [UInt8]) throws(BinaryReader.Malformed) -> (
    source: String, entry: [UInt8]
  ) {
    guard var reader = BinaryReader(record, magic: recordMagic) else {
      throw BinaryReader.Malformed(detail: "not a feed cache record")
    }
    let source = try reader.string()
    return (source, Array(record[reader.offset...]))
  }
}
