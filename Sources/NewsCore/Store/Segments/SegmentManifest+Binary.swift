import FeedParsing
import Foundation

extension SegmentManifest {
  /// Marks the compact format whose segments carry their summaries and packs; manifests written
  /// before it (``summarizedMagic``, ``firstMagic``, and JSON before that) are still read, and
  /// the next commit rewrites them.
  static let magic = "NSM3"
  /// Marks the compact format whose segments carry their summaries, but no pack.
  static let summarizedMagic = "NSM2"
  /// Marks the compact format of segments without summaries.
  static let firstMagic = "NSM1"

  /// The manifest, described once: its header (version, next number, generation, retired
  /// segments: a flag and a value each, the retired as a count of integers), a count of
  /// providers each a name and a count of ``segmentLayout``.
  static let header = BinaryLayout(
    magic: magic, fields: [.integer, .integer, .flag, .integer, .flag, .integer])
  /// The header of a manifest of ``summarizedMagic``: the same, its segments without a pack.
  static let summarizedHeader = BinaryLayout(magic: summarizedMagic, fields: header.fields)
  /// The header of a manifest of ``firstMagic``: the same, its segments of ``firstSegmentLayout``.
  static let firstHeader = BinaryLayout(magic: firstMagic, fields: header.fields)
  /// One segment of a provider, without its summary (``firstMagic``).
  static let firstSegmentLayout: [BinaryField] = [
    .integer, .integer, .double, .integer, .integer, .flag, .double,
  ]
  /// One segment of a provider: ``firstSegmentLayout``, then its summary (a flag, its earliest
  /// and latest dates, a flag and the latest seen of its undated records), then its providers
  /// and its publishers (``summaryNames``) each.
  static let segmentLayout: [BinaryField] =
    firstSegmentLayout + [.flag, .double, .double, .flag, .double]
  /// A list of names of a summary: a flag (listed or not), a count, then that many strings.
  static let summaryNames: [BinaryField] = [.flag, .integer]
  /// After its summary's names, where a segment is in a pack (``magic``): a flag (packed or
  /// not), then the pack's number and the place (index, count, offset, length).
  static let packLayout: [BinaryField] = [.flag, .integer, .integer, .integer, .integer, .integer]

  /// The manifest in the compact format of ``BinaryWriter``: read and written on every commit,
  /// it lists every segment (1,000 feeds: 1,000 providers), which JSON's coders took a quarter
  /// of a cold refresh's time to go through.
  ///
  /// - Throws: `BinaryReader.Malformed` for a value the format cannot hold.
  func encoded() throws(BinaryReader.Malformed) -> [UInt8] {
    var writer = BinaryWriter(magic: Self.magic)
    writer.integer(version)
    writer.integer(next)
    writer.bool(generation != nil)
    writer.integer(generation ?? 0)
    writer.bool(retired != nil)
    writer.integer(retired?.count ?? 0)
    for number in retired ?? [] { writer.integer(number) }
    writer.integer(providers.count)
    for (provider, segments) in providers.sorted(by: { $0.key < $1.key }) {
      writer.string(provider)
      writer.integer(segments.count)
      for segment in segments {
        writer.integer(segment.number)
        writer.integer(segment.count)
        writer.double(segment.oldestSeen)
        writer.integer(segment.chunks)
        writer.integer(segment.buckets)
        writer.bool(segment.newestPublished != nil)
        writer.double(segment.newestPublished ?? 0)
        writer.bool(segment.summary != nil)
        writer.double(segment.summary?.earliest ?? 0)
        writer.double(segment.summary?.latest ?? 0)
        writer.bool(segment.summary?.latestUndated != nil)
        writer.double(segment.summary?.latestUndated ?? 0)
        for names in [segment.summary?.providers, segment.summary?.publishers] {
          writer.bool(names != nil)
          writer.integer(names?.count ?? 0)
          for name in names ?? [] { writer.string(name) }
        }
        writer.bool(segment.pack != nil)
        for value in segment.pack.map({ [$0.pack, $0.index, $0.count, $0.offset, $0.length] })
          ?? [0, 0, 0, 0, 0]
        {
          writer.integer(value)
        }
      }
    }
    return try writer.checked()
  }

  /// Decodes a manifest in any format: compact (with summaries or without), or the JSON of
  /// earlier versions.
  ///
  /// - Throws: `BinaryReader.Malformed` or `DecodingError`.
  static func decode(_ bytes: [UInt8]) throws -> SegmentManifest {
    let packed = BinaryReader(bytes, magic: magic) != nil
    let summarized = packed || BinaryReader(bytes, magic: summarizedMagic) != nil
    guard
      var reader = BinaryReader(bytes, magic: magic)
        ?? BinaryReader(bytes, magic: summarizedMagic) ?? BinaryReader(bytes, magic: firstMagic)
    else {
      let manifest = try JSONDecoder().decode(SegmentManifest.self, from: Data(bytes))
      // Times are finite (the compact format refuses others): a manifest that says otherwise
      // is damaged, not rewritten into one that no longer reads.
      let finite = manifest.providers.values.joined().allSatisfy { (segment: SegmentInfo) in
        segment.oldestSeen.isFinite && (segment.newestPublished ?? 0).isFinite
      }
      guard finite else {
        throw BinaryReader.Malformed(detail: "not a finite number")
      }
      guard manifest.providers.values.joined().allSatisfy({ $0.pack?.isPossible ?? true }) else {
        throw BinaryReader.Malformed(detail: "not a place in a pack")
      }
      return manifest
    }
    var manifest = SegmentManifest()
    manifest.version = try reader.integer()
    manifest.next = try reader.integer()
    let hasGeneration = try reader.bool() == true
    let generation = try reader.integer()
    manifest.generation = hasGeneration ? generation : nil
    let hasRetired = try reader.bool() == true
    let retiredCount = try reader.integer()
    var retired: [Int] = []
    for _ in 0..<retiredCount { retired.append(try reader.integer()) }
    manifest.retired = hasRetired ? retired : nil
    let providerCount = try reader.integer()
    for _ in 0..<providerCount {
      let provider = try reader.string()
      let count = try reader.integer()
      var segments: [SegmentInfo] = []
      segments.reserveCapacity(min(count, 10_000))
      for _ in 0..<count {
        var segment = SegmentInfo(
          number: try reader.integer(), count: try reader.integer(),
          oldestSeen: try reader.double(), chunks: try reader.integer(),
          buckets: try reader.integer())
        let hasNewest = try reader.bool() == true
        let newest = try reader.double()
        segment.newestPublished = hasNewest ? newest : nil
        if summarized { segment.summary = try readSummary(from: &reader) }
        if packed { segment.pack = try readPlace(from: &reader) }
        segments.append(segment)
      }
      manifest.providers[provider] = segments
    }
    guard reader.isAtEnd else { throw BinaryReader.Malformed(detail: "bytes after the manifest") }
    return manifest
  }

  /// A segment's summary, as ``encoded()`` writes it; `nil` when it has none.
  private static func readSummary(
    from reader: inout BinaryReader
  ) throws(BinaryReader.Malformed) -> SegmentSummary? {
    let hasSummary = try reader.bool() == true
    let earliest = try reader.double()
    let latest = try reader.double()
    let hasUndated = try reader.bool() == true
    let latestUndated = try reader.double()
    var lists: [[String]?] = []
    for _ in 0..<2 {
      let listed = try reader.bool() == true
      let count = try reader.integer()
      var names: [String] = []
      names.reserveCapacity(min(count, SegmentSummary.maximumNames))
      for _ in 0..<count { names.append(try reader.string()) }
      lists.append(listed ? names : nil)
    }
    guard hasSummary else { return nil }
    return SegmentSummary(
      earliest: earliest, latest: latest, latestUndated: hasUndated ? latestUndated : nil,
      providers: lists[0], publishers: lists[1])
  }

  /// A segment's place in a pack, as ``encoded()`` writes it; `nil` when it has none.
  private static func readPlace(
    from reader: inout BinaryReader
  ) throws(BinaryReader.Malformed) -> SegmentPlace? {
    let isPacked = try reader.bool() == true
    let values = try (0..<5).map { _ throws(BinaryReader.Malformed) in try reader.integer() }
    guard isPacked else { return nil }
    let place = SegmentPlace(
      pack: values[0],
      place: SealedBundle.Place(
        index: values[1], count: values[2], offset: values[3], length: values[4]))
    guard place.isPossible else { throw BinaryReader.Malformed(detail: "not a place in a pack") }
    return place
  }

  /// The manifest `store` holds, in either format; `nil` when there is none.
  ///
  /// - Throws: ``StoreError/unreadableContent(path:detail:)`` for one that does not decode, and
  ///   the store's errors (a damaged file, a wrong key).
  static func stored(in store: EncryptedStore) throws -> SegmentManifest? {
    do {
      // What this process committed last, while no other writer replaced it.
      return try store.readHeld(fileName) { try decode($0) }
    } catch let error as StoreError {
      throw error
    } catch let malformed as BinaryReader.Malformed {
      throw StoreError.unreadableContent(
        path: store.url(for: fileName).path, detail: malformed.detail)
    } catch {
      throw StoreError.unreadableContent(
        path: store.url(for: fileName).path, detail: DecodingErrorDescription.describe(error))
    }
  }
}
