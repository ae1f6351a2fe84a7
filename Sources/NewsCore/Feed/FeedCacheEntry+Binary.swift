import Foundation

extension FeedCacheEntry {
  /// Marks the compact format (entries written before it are JSON, and still read): `NFC4`
  /// ends with the feed's ``title`` and ``site`` too; `NFC3` items carry their categories and
  /// it ends with ``freshFor``, ``freshKind`` and ``postsEvery``; `NFC2` items have none
  /// (``FeedItemPack/firstItemLayout``) and it ends with ``freshFor`` alone; `NFC1`, its first
  /// version, after the items.
  static let magic = "NFC4"
  static let thirdMagic = "NFC3"
  static let secondMagic = "NFC2"
  static let firstMagic = "NFC1"

  /// The entry, described once: its header, then a count of items each an id, a source and
  /// ``FeedItemPack/itemLayout``, then ``freshFor``, ``freshKind``, ``postsEvery``, ``title``
  /// and ``site`` (``trailer``; -1 for a number not known).
  static let header = BinaryLayout(
    magic: magic, fields: [.string, .double, .optionalString, .optionalString, .flag])
  /// What comes before each item's own fields.
  static let itemPrefix: [BinaryField] = [.string, .string]
  static let trailer: [BinaryField] = [
    .double, .optionalString, .double, .optionalString, .optionalString,
  ]

  /// The entry in the compact format of ``BinaryWriter``.
  ///
  /// - Throws: `BinaryReader.Malformed` for a value the format cannot hold.
  func encoded() throws(BinaryReader.Malformed) -> [UInt8] {
    try encoded(items: writeOwnItems)
  }

  /// Writes ``items`` as an entry lists them.
  private func writeOwnItems(to writer: inout BinaryWriter) {
    writer.integer(items.count)
    for item in items {
      writer.string(item.id)
      writer.string(item.feed)
      FeedItemPack.write(item, to: &writer)
    }
  }

  /// The entry in the same format with the items of `pack` in place of ``items``, copied as
  /// they are packed rather than decoded (the pack writes an item as an entry does, after its
  /// id and source).
  func encoded(with pack: FeedItemPack) throws(BinaryReader.Malformed) -> [UInt8] {
    try encoded { pack.write(to: &$0) }
  }

  /// The entry as the record of `source` in a bundle of the cache (``FeedCacheIndex/record(_:_:)``
  /// written at once, without a copy of the entry), with the items of `pack`, or its own.
  func record(of source: String, with pack: FeedItemPack?) throws(BinaryReader.Malformed)
    -> [UInt8]
  {
    var writer = BinaryWriter(magic: FeedCacheIndex.recordMagic)
    writer.string(source)
    writer.raw(Array(Self.magic.utf8)[...])
    if let pack {
      write(to: &writer) { pack.write(to: &$0) }
    } else {
      write(to: &writer, items: writeOwnItems)
    }
    return try writer.checked()
  }

  private func encoded(items writeItems: (inout BinaryWriter) -> Void)
    throws(BinaryReader.Malformed) -> [UInt8]
  {
    var writer = BinaryWriter(magic: Self.magic)
    write(to: &writer, items: writeItems)
    return try writer.checked()
  }

  /// Writes the entry but its magic.
  private func write(to writer: inout BinaryWriter, items writeItems: (inout BinaryWriter) -> Void)
  {
    writer.string(url)
    writer.double(fetchedAt.timeIntervalSince1970)
    writer.optionalString(etag)
    writer.optionalString(lastModified)
    writer.bool(kept)
    writeItems(&writer)
    writer.double(freshFor ?? -1)
    writer.optionalString(freshKind)
    writer.double(postsEvery ?? -1)
    writer.optionalString(title)
    writer.optionalString(site)
  }

  /// A reader of `bytes` past the magic when they are an entry whose items are laid out as now
  /// (`NFC4`, or `NFC3`, which only ends sooner), and whether it is of the current version.
  private static func itemsLaidOutAsNow(_ bytes: [UInt8]) -> (BinaryReader, current: Bool)? {
    if let reader = BinaryReader(bytes, magic: magic) { return (reader, true) }
    return BinaryReader(bytes, magic: thirdMagic).map { ($0, false) }
  }

  /// A reader of the compact entry `bytes` at its first item (its id), when it lists `count`
  /// items; else `nil` (for a pack read back from the entry written with it).
  static func itemsReader(_ bytes: [UInt8], count: Int) -> BinaryReader? {
    guard var (reader, _) = itemsLaidOutAsNow(bytes) else { return nil }
    do {
      try reader.skip(header.fields)
      guard try reader.integer() == count else { return nil }
      return reader
    } catch {
      return nil
    }
  }

  /// Decodes an entry without its items (``items`` stays empty): what `news sources` needs of
  /// a thousand sources (when each was fetched, what it said, how often it posts), the items of
  /// a current entry skipped by their layout (an older one's are read: its rate comes from them).
  static func decodeSummary(_ bytes: [UInt8]) throws -> FeedCacheEntry {
    var entry = try decode(bytes, buildingItems: false)
    entry.items = []
    return entry
  }

  /// Decodes an entry in either format: compact, or the JSON of earlier versions.
  static func decode(_ bytes: [UInt8]) throws -> FeedCacheEntry {
    try decode(bytes, buildingItems: true)
  }

  /// Decodes an entry of the current format with its items left packed in `bytes` (their ids
  /// and sources read, the rest when they are shown): a refresh of 10,000 cached sources neither
  /// builds nor packs again 200,000 items it may never show. ``items`` stays empty; `nil` for an
  /// entry of an earlier format (``decode(_:)`` reads those).
  static func decodePacked(_ bytes: [UInt8]) throws -> (entry: FeedCacheEntry, pack: FeedItemPack)?
  {
    guard itemsLaidOutAsNow(bytes) != nil else { return nil }
    var ids: [String] = []
    var sources: [String] = []
    let entry = try decode(bytes, buildingItems: false) { id, source in
      ids.append(id)
      sources.append(source)
    }
    return (entry, FeedItemPack(ids: ids, sources: sources, inEntry: bytes))
  }

  private static func decode(
    _ bytes: [UInt8], buildingItems: Bool, listing: ((String, String) -> Void)? = nil
  ) throws -> FeedCacheEntry {
    let laidOut = itemsLaidOutAsNow(bytes)
    // Items laid out as now (`NFC4`, `NFC3`), and whether the entry ends with its title.
    let current = laidOut?.0
    let titled = laidOut?.current == true
    let second = current == nil ? BinaryReader(bytes, magic: secondMagic) : nil
    guard var reader = current ?? second ?? BinaryReader(bytes, magic: firstMagic) else {
      // What the store's JSON coder wrote: dates as seconds since 1970.
      let decoder = JSONDecoder()
      decoder.dateDecodingStrategy = .secondsSince1970
      var entry = try decoder.decode(FeedCacheEntry.self, from: Data(bytes))
      entry.postsEvery = PostingRate.interval(of: entry.items, at: entry.fetchedAt)
      return entry
    }
    var entry = FeedCacheEntry(
      url: try reader.string(), items: [],
      fetchedAt: Date(timeIntervalSince1970: try reader.double()),
      etag: try reader.optionalString(),
      lastModified: try reader.optionalString(), kept: try reader.bool())
    let count = try reader.integer()
    entry.items.reserveCapacity(min(count, 100_000))
    var listedSource: String?
    for _ in 0..<count {
      if !buildingItems, current != nil {
        if let listing {
          let id = try reader.string()
          let source = try reader.string(sameAs: listedSource)
          listedSource = source
          listing(id, source)
        } else {
          try reader.skip(itemPrefix)
        }
        try reader.skip(FeedItemPack.itemLayout.fields)
        continue
      }
      let id = try reader.string()
      let source = try reader.string()
      entry.items.append(
        try FeedItemPack.readItem(
          id: id, source: source, from: &reader, categorized: current != nil))
    }
    if current != nil || second != nil {
      let freshFor = try reader.double()
      entry.freshFor = freshFor >= 0 ? freshFor : nil
    }
    if current != nil {
      entry.freshKind = try reader.optionalString()
      let postsEvery = try reader.double()
      entry.postsEvery = postsEvery >= 0 ? postsEvery : nil
    }
    if titled {
      entry.title = try reader.optionalString()
      entry.site = try reader.optionalString()
    }
    if current == nil {
      // Written before the rate was kept: read from the items as they were then.
      entry.postsEvery = PostingRate.interval(of: entry.items, at: entry.fetchedAt)
    }
    guard reader.isAtEnd else { throw BinaryReader.Malformed(detail: "bytes after the record") }
    return entry
  }
}
