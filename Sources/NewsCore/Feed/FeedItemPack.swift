import FeedParsing
import Foundation

/// A source's items held compactly until they are shown, a source at a time: their ids (what a
/// list needs of every item: links merged, read state, unread counts, the last list) as strings,
/// everything else as the bytes of ``BinaryWriter``, decoded when the source is shown.
///
/// `news feed --refresh` of 1,000 feeds holds 50,000 items from the first answer to the last;
/// packed, an item costs the bytes of its text rather than a value of ten strings. Narrowing
/// (``filter(_:)``, ``prefix(_:)``) keeps the bytes and forgets positions. Once the items are in
/// the source's cache entry, the bytes are let go (``spill(reading:)``) and read back from it
/// when the source is shown: the run then holds only the ids of what it shows.
public struct FeedItemPack: Sendable {
  /// The magic of the packed bytes (never written to disk).
  private static let magic = "NFP2"

  /// The ids of the items in, in order.
  public private(set) var ids: [String]
  /// The source each item in was listed by (the report's own name but for a saved search's).
  private var sources: [String]
  /// Where each item in is among those packed, ascending.
  private var positions: [Int]
  /// Every item packed but its id and source, in order, or where to read them back.
  private var storage: Storage
  /// How many items were packed (what a cache entry read back must list).
  private let packed: Int
  /// The enclosures of the items that carry some, by position (few items do).
  private let enclosures: [Int: [Enclosure]]

  /// Packs `items`.
  public init(_ items: [FeedItem]) {
    var writer = BinaryWriter(magic: Self.magic)
    var enclosures: [Int: [Enclosure]] = [:]
    for (position, item) in items.enumerated() {
      Self.write(item, to: &writer)
      if !item.enclosures.isEmpty { enclosures[position] = item.enclosures }
    }
    // Exactly as long as the items: a writer's buffer grows by doubling.
    storage = .held(Array(writer.bytes[...]))
    packed = items.count
    ids = items.map(\.id)
    sources = items.map(\.feed)
    positions = Array(items.indices)
    self.enclosures = enclosures
  }

  /// The items the cache entry `bytes` lists, whose ids and sources are `ids` and `sources`, in
  /// order: left in the entry, each decoded when shown (``FeedCacheEntry/decodePacked(_:)``).
  init(ids: [String], sources: [String], inEntry bytes: [UInt8]) {
    self.ids = ids
    self.sources = sources
    positions = Array(ids.indices)
    packed = ids.count
    // An entry's items carry no enclosures: those are the store's (``ArticleStore``).
    enclosures = [:]
    storage = .spilled { bytes }
  }

  /// Where the packed items are.
  private enum Storage: Sendable {
    /// Held: each item's fields (``itemLayout``) after the pack's magic.
    case held([UInt8])
    /// Let go: the bytes of the cache entry that lists every item packed, each after its id
    /// and source, read back by the closure (`nil` when it cannot be).
    case spilled(@Sendable () -> [UInt8]?)
  }

  /// Lets the packed bytes go, to be read back by `read`: the bytes of a cache entry written
  /// with every item of this pack (``FeedCacheEntry/encoded(with:)``, the pack whole). An entry
  /// that no longer lists these items (another run replaced it meanwhile) reads as none.
  mutating func spill(reading read: @escaping @Sendable () -> [UInt8]?) {
    guard case .held = storage, positions.count == packed else { return }
    storage = .spilled(read)
  }

  /// Whether the bytes were let go.
  var isSpilled: Bool {
    if case .spilled = storage { return true }
    return false
  }

  /// A reader at the first item, and whether each item comes after its id and source (a cache
  /// entry's); `nil` when the items cannot be read back.
  private func itemReader() -> (reader: BinaryReader, interleaved: Bool)? {
    switch storage {
    case .held(let bytes):
      return BinaryReader(bytes, magic: Self.magic).map { ($0, false) }
    case .spilled(let read):
      guard let entry = read(), let reader = FeedCacheEntry.itemsReader(entry, count: packed)
      else { return nil }
      return (reader, true)
    }
  }

  /// How many items are in.
  public var count: Int { ids.count }

  /// Whether no item is in.
  public var isEmpty: Bool { ids.isEmpty }

  /// Keeps the items `isIncluded` accepts, asking once an item, in order, with its id and the
  /// source that listed it.
  public mutating func filterWithSource(_ isIncluded: (_ id: String, _ source: String) -> Bool) {
    var kept: [Int] = []
    for index in ids.indices where isIncluded(ids[index], sources[index]) { kept.append(index) }
    guard kept.count < ids.count else { return }
    ids = kept.map { ids[$0] }
    sources = kept.map { sources[$0] }
    positions = kept.map { positions[$0] }
  }

  /// Keeps the items whose id `isIncluded` accepts.
  public mutating func filter(_ isIncluded: (_ id: String) -> Bool) {
    filterWithSource { id, _ in isIncluded(id) }
  }

  /// Keeps the first `count` items.
  public mutating func prefix(_ count: Int) {
    guard count < ids.count else { return }
    ids.removeSubrange(max(0, count)...)
    sources.removeSubrange(max(0, count)...)
    positions.removeSubrange(max(0, count)...)
  }

  /// The ids of the items in that carry no enclosure.
  public var idsWithoutEnclosures: [String] {
    ids.indices.filter { enclosures[positions[$0]] == nil }.map { ids[$0] }
  }

  /// The enclosures of the items in that carry some, by id (the first item of an id's).
  public var enclosuresByID: [String: [Enclosure]] {
    var byID: [String: [Enclosure]] = [:]
    for (index, position) in positions.enumerated() {
      if let found = enclosures[position], byID[ids[index]] == nil { byID[ids[index]] = found }
    }
    return byID
  }

  /// An item but its id and source, described once: its text, links, date, author and
  /// categories (one string, each ended by a line feed; none: absent) (the pack's bytes, and each
  /// item of a cache entry after its id and source).
  static let itemLayout = BinaryLayout(
    magic: magic,
    fields: [
      .string, .optionalString, .optionalString, .optionalString, .date, .optionalString,
      .optionalString, .optionalString,
    ])
  /// An item of a cache entry written before categories were kept (`NFC1`, `NFC2`).
  static let firstItemLayout = BinaryLayout(
    magic: "NFP1", fields: Array(itemLayout.fields.dropLast()))

  /// Writes an item but its id and source (``itemLayout``).
  static func write(_ item: FeedItem, to writer: inout BinaryWriter) {
    writer.string(item.title)
    writer.optionalString(item.description)
    writer.optionalString(item.imageURL)
    writer.optionalString(item.url)
    writer.date(item.publishedAt)
    writer.optionalString(item.author)
    writer.optionalString(item.content)
    writer.optionalString(
      item.categories.isEmpty ? nil : item.categories.map { $0 + "\n" }.joined())
  }

  /// Reads an item ``write(_:to:)`` wrote (`categorized`), or one of ``firstItemLayout``,
  /// with its `id` and `source`.
  ///
  /// - Parameter bodies: `false` moves past the content and the categories without decoding them.
  static func readItem(
    id: String, source: String, from reader: inout BinaryReader, categorized: Bool = true,
    bodies: Bool = true, enclosures: [Enclosure] = []
  ) throws(BinaryReader.Malformed) -> FeedItem {
    let title = try reader.string()
    let description = try reader.optionalString()
    let imageURL = try reader.optionalString()
    let url = try reader.optionalString()
    let publishedAt = try reader.date()
    let author = try reader.optionalString()
    var content: String?
    var categories: [String] = []
    if !bodies {
      try reader.skipOptionalString()
      if categorized { try reader.skipOptionalString() }
    } else {
      content = try reader.optionalString()
      if categorized, let joined = try reader.optionalString() {
        // Split at each line feed byte: a category ending in a carriage return still reads
        // back as written (a CR LF is one Character).
        categories = joined.utf8.split(separator: 0x0A).map {
          String(decoding: $0, as: UTF8.self)
        }
      }
    }
    return FeedItem(
      id: id, feed: source, title: title, description: description, imageURL: imageURL,
      url: url, publishedAt: publishedAt, author: author, content: content,
      categories: categories, enclosures: enclosures)
  }

  /// Moves `reader` past a cache entry's id and source before an item (when `interleaved`),
  /// and answers the id.
  private static func skipPrefix(_ reader: inout BinaryReader, _ interleaved: Bool)
    throws(BinaryReader.Malformed) -> String?
  {
    guard interleaved else { return nil }
    let id = try reader.string()
    try reader.skipString()
    return id
  }

  /// Moves `reader` past an item ``write(_:to:)`` wrote.
  private static func skipItem(_ reader: inout BinaryReader) throws(BinaryReader.Malformed) {
    try reader.skip(itemLayout.fields)
  }

  /// Writes the items in as a cache entry lists them (their count, then each with its id and
  /// source), their bytes copied rather than decoded.
  func write(to writer: inout BinaryWriter) {
    writer.integer(ids.count)
    guard let (first, interleaved) = itemReader() else {
      return writer.fail("a pack whose items do not read back")
    }
    var reader = first
    var next = 0
    var position = 0
    while next < positions.count {
      // Bytes this type wrote itself: they read back, or the record is refused (its count is
      // written already), never cut short.
      do throws(BinaryReader.Malformed) {
        let id = try Self.skipPrefix(&reader, interleaved)
        let start = reader.offset
        try Self.skipItem(&reader)
        if positions[next] == position {
          guard id == nil || id == ids[next] else { throw BinaryReader.Malformed(detail: "ids") }
          writer.string(ids[next])
          writer.string(sources[next])
          writer.raw(reader.bytes(start..<reader.offset))
          next += 1
        }
      } catch {
        return writer.fail("a pack that does not read back (\(error.detail))")
      }
      position += 1
    }
  }

  /// The items in, decoded, in order.
  public var items: [FeedItem] { items(bodies: true) }

  /// The items in, decoded, in order; without their content and categories when `bodies` is
  /// `false`.
  public func items(bodies: Bool) -> [FeedItem] {
    guard let (first, interleaved) = itemReader() else { return [] }
    var reader = first
    var items: [FeedItem] = []
    items.reserveCapacity(ids.count)
    var next = 0
    var position = 0
    // Bytes this type wrote itself (held, or in the entry written with them): they read back.
    while next < positions.count, !reader.isAtEnd {
      do {
        let id = try Self.skipPrefix(&reader, interleaved)
        if positions[next] != position {
          try Self.skipItem(&reader)
        } else {
          // An entry replaced meanwhile lists other items: none is taken for another.
          guard id == nil || id == ids[next] else { return [] }
          items.append(
            try Self.readItem(
              id: ids[next], source: sources[next], from: &reader, bodies: bodies,
              enclosures: enclosures[position] ?? []))
          next += 1
        }
      } catch {
        break
      }
      position += 1
    }
    return items
  }
}
