import Foundation

/// What the feed cache holds: its bundles, and where each source's entry is.
///
/// On disk, the index `feeds` lists the live bundles (each with the place of its directory) and
/// the next bundle's number: a few bytes a bundle, whatever the sources, so that a commit writes
/// a small file. Each bundle's last record is its directory: each of its entries' source, place
/// and summary (all `news sources` needs of it). ``entries`` is made from the directories, the
/// newest bundle holding a source winning; bundles never change once written.
struct FeedCacheIndex: Sendable, Equatable {
  /// One source's entry.
  struct Entry: Sendable, Equatable {
    /// The number of its bundle (`feeds-<n>`).
    var bundle: Int
    /// Where it is in it.
    var place: SealedBundle.Place
    /// The entry without its items, as ``FeedCacheEntry/encoded()`` writes one.
    var summary: [UInt8]
    /// How many items it holds; `nil` when a directory written before counts were kept (`NFD1`)
    /// listed it.
    var itemCount: Int? = nil
  }

  /// The number the next bundle is given (numbers are never reused).
  var next = 0
  /// Where each live bundle's directory is, by number.
  var bundles: [Int: SealedBundle.Place] = [:]
  /// Each source's entry, by source name (made from the directories, not stored in the index;
  /// changed through ``assign(_:to:)``).
  private(set) var entries: [String: Entry] = [:]
  /// How many entries each bundle still holds, by number (kept as entries are assigned: a
  /// commit costs what it changes, not what the cache holds).
  private(set) var live: [Int: Int] = [:]
  /// The bundles whose directory does not open: kept as they are until a repair (not stored).
  var unreadable = Set<Int>()

  static let magic = "NFI1"
  /// The index, described once: the next number and a count of bundles, each its number and
  /// its directory's place (index, count, offset, length).
  static let layout = BinaryLayout(
    magic: magic, fields: [.integer, .integer, .integer, .integer, .integer])

  static let directoryMagic = "NFD2"
  /// A bundle's directory, described once: a count of entries, each a source name, its place
  /// (index, count, offset, length) and its number of items plus one (0: not known), then its
  /// summary's bytes. A sync tells how many items a source not due holds from it, without
  /// opening the entry.
  static let directoryLayout = BinaryLayout(
    magic: directoryMagic, fields: [.string, .integer, .integer, .integer, .integer, .integer])
  /// The directory before item counts: each source name, its place, its summary.
  static let firstDirectoryMagic = "NFD1"
  static let firstDirectoryLayout = BinaryLayout(
    magic: firstDirectoryMagic, fields: [.string, .integer, .integer, .integer, .integer])

  /// Room for `count` more entries.
  mutating func reserve(_ count: Int) {
    entries.reserveCapacity(entries.count + count)
  }

  /// Makes `entry` the one of `source`.
  mutating func assign(_ entry: Entry, to source: String) {
    if let old = entries.updateValue(entry, forKey: source) {
      live[old.bundle, default: 1] -= 1
      if live[old.bundle] == 0 { live[old.bundle] = nil }
    }
    live[entry.bundle, default: 0] += 1
  }

  /// The index (its bundles) in the compact format of ``BinaryWriter``.
  func encoded() throws(BinaryReader.Malformed) -> [UInt8] {
    var writer = BinaryWriter(magic: Self.magic)
    writer.integer(next)
    writer.integer(bundles.count)
    for (number, place) in bundles.sorted(by: { $0.key < $1.key }) {
      writer.integer(number)
      Self.write(place, to: &writer)
    }
    return try writer.checked()
  }

  /// Reads an index ``encoded()`` wrote (its bundles; no entries yet).
  static func decode(_ bytes: [UInt8]) throws(BinaryReader.Malformed) -> FeedCacheIndex {
    guard var reader = BinaryReader(bytes, magic: magic) else {
      throw BinaryReader.Malformed(detail: "not a feed cache index")
    }
    var index = FeedCacheIndex(next: try reader.integer())
    let count = try reader.integer()
    for _ in 0..<count {
      let number = try reader.integer()
      index.bundles[number] = try read(from: &reader)
    }
    guard reader.isAtEnd else { throw BinaryReader.Malformed(detail: "bytes after the index") }
    return index
  }

  /// The directory of a bundle holding `entries` (each with its place in it).
  static func directory(
    _ entries: [(source: String, place: SealedBundle.Place, summary: [UInt8], itemCount: Int?)],
    magic: String = directoryMagic
  ) -> [UInt8] {
    var writer = BinaryWriter(magic: magic)
    writer.integer(entries.count)
    for entry in entries {
      writer.string(entry.source)
      write(entry.place, to: &writer)
      if magic != firstDirectoryMagic { writer.integer(entry.itemCount.map { $0 + 1 } ?? 0) }
      writer.data(entry.summary)
    }
    return writer.bytes
  }

  /// The entries the directory `bytes` of bundle `number` lists.
  static func entries(inDirectory bytes: [UInt8], of number: Int)
    throws(BinaryReader.Malformed) -> [(source: String, entry: Entry)]
  {
    let counted = BinaryReader(bytes, magic: directoryMagic)
    guard var reader = counted ?? BinaryReader(bytes, magic: firstDirectoryMagic) else {
      throw BinaryReader.Malformed(detail: "not a feed cache directory")
    }
    let count = try reader.integer()
    var entries: [(source: String, entry: Entry)] = []
    entries.reserveCapacity(min(count, 100_000))
    for _ in 0..<count {
      let source = try reader.string()
      let place = try read(from: &reader)
      let itemCount = counted == nil ? 0 : try reader.integer()
      let summary = Array(reader.bytes(try reader.dataRange()))
      entries.append(
        (
          source,
          Entry(
            bundle: number, place: place, summary: summary,
            itemCount: itemCount > 0 ? itemCount - 1 : nil)
        ))
    }
    guard reader.isAtEnd else {
      throw BinaryReader.Malformed(detail: "bytes after the directory")
    }
    return entries
  }

  private static func write(_ place: SealedBundle.Place, to writer: inout BinaryWriter) {
    writer.integer(place.index)
    writer.integer(place.count)
    writer.integer(place.offset)
    writer.integer(place.length)
  }

  private static func read(from reader: inout BinaryReader) throws(BinaryReader.Malformed)
    -> SealedBundle.Place
  {
    SealedBundle.Place(
      index: try reader.integer(), count: try reader.integer(), offset: try reader.integer(),
      length: try reader.integer())
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
