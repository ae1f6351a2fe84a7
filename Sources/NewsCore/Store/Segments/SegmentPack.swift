import Foundation

/// Where a small segment's main file is in a pack.
struct SegmentPlace: Codable, Sendable, Equatable {
  /// The pack's number: its file is `segs-<pack>` (numbers are the segments', never reused).
  var pack: Int
  /// Its record's index among the pack's records, and how many the pack holds.
  var index: Int
  var count: Int
  /// Where its sealed bytes start in the pack, and how many there are.
  var offset: Int
  var length: Int

  init(pack: Int, place: SealedBundle.Place) {
    self.pack = pack
    (index, count, offset, length) = (place.index, place.count, place.offset, place.length)
  }

  /// Whether a pack could hold a record there: what a manifest says is checked as it is read.
  var isPossible: Bool {
    pack >= 0 && index >= 0 && count > index && offset >= SealedBundle.headerLength
      && length >= 0
  }

  var place: SealedBundle.Place {
    SealedBundle.Place(index: index, count: count, offset: offset, length: length)
  }
}

/// Small segments (one file each: at most ``SegmentBuilder/chunkSize`` records) written together:
/// a commit of a refresh saves one segment a source, and one file a source cost the refresh a
/// quarter of its time in the kernel. A pack is a ``SealedBundle``: first each segment's
/// ``SegmentFilter`` (one record, ``filtersMagic``), then each segment's main file a record of its
/// own (read and decrypted alone), then a directory naming each record's segment number
/// (``directoryLayout``), so that a lost manifest is rebuilt from packs too. Packs written before
/// the filters have none: their directory (``firstDirectoryMagic``) names records from the first.
///
/// The manifest says where each packed segment is (``SegmentInfo/pack``); a pack is live while
/// it lists one of them. A commit moves the live segments of packs left half empty, and of the
/// newest packs no more than twice its own, into its new pack (``ArticleSegments``): a segment is
/// carried a logarithmic number of times, and the packs on disk hold at most about twice what is
/// live.
enum SegmentPack {
  static let directoryMagic = "NSK2"
  /// The directory of a pack without filters, its segments from its first record.
  static let firstDirectoryMagic = "NSK1"
  /// A pack's directory, described once: a count of segments, each its number.
  static let directoryLayout = BinaryLayout(magic: directoryMagic, fields: [.integer])
  static let firstDirectoryLayout = BinaryLayout(magic: firstDirectoryMagic, fields: [.integer])
  /// A pack's first record: a count of segments, then each one's filter, its bits as bytes (a
  /// length, then 8 bytes a 64-bit word, little-endian; none: no filter, the segment is always
  /// opened).
  static let filtersMagic = "NSW1"
  static let filtersLayout = BinaryLayout(magic: filtersMagic, fields: [.integer])

  /// The number in a pack's name, `nil` for other files.
  static func number(inFileName name: String) -> Int? {
    guard name.hasPrefix(StoreLayout.segmentPackPrefix) else { return nil }
    return Int(name.dropFirst(StoreLayout.segmentPackPrefix.count))
  }

  /// Writes `segments` (each main file made by `main`, twice: for its filter, then for its
  /// record) as the new pack `number`, and answers each one's info with its place.
  static func write(
    number: Int, segments: [SegmentInfo], main: (SegmentInfo) throws -> [UInt8],
    in files: EncryptedStore.Transaction
  ) throws -> [SegmentInfo] {
    let places = try files.createBundle(
      count: segments.count + 2, name: StoreLayout.segmentPack(number)
    ) { index, _ in
      if index == 0 { return filters(try segments.map { SegmentFilter(main: try main($0)) }) }
      guard index <= segments.count else { return directory(segments.map(\.number)) }
      return try main(segments[index - 1])
    }
    return zip(segments, places.dropFirst()).map { segment, place in
      var packed = segment
      packed.pack = SegmentPlace(pack: number, place: place)
      return packed
    }
  }

  /// The first record of a pack: the filters of its segments, in order.
  static func filters(_ filters: [SegmentFilter?]) -> [UInt8] {
    var writer = BinaryWriter(magic: filtersMagic)
    writer.integer(filters.count)
    for filter in filters {
      writer.data(filter?.bytes ?? [])
    }
    return writer.bytes
  }

  /// The filters a pack's first record holds, `count` of them (`nil`: a segment without one).
  static func filters(inRecord bytes: [UInt8], count: Int) throws(BinaryReader.Malformed)
    -> [SegmentFilter?]
  {
    guard var reader = BinaryReader(bytes, magic: filtersMagic) else {
      throw BinaryReader.Malformed(detail: "not a segment pack's filters")
    }
    guard try reader.integer() == count else {
      throw BinaryReader.Malformed(detail: "filters of another count of segments")
    }
    let filters = try (0..<count).map { _ throws(BinaryReader.Malformed) -> SegmentFilter? in
      let range = try reader.dataRange()
      guard !range.isEmpty else { return nil }
      guard let filter = SegmentFilter(bytes: bytes[range]) else {
        throw BinaryReader.Malformed(detail: "a filter of a length not a multiple of 8")
      }
      return filter
    }
    guard reader.isAtEnd else { throw BinaryReader.Malformed(detail: "bytes after the filters") }
    return filters
  }

  /// The filters of the pack `place` is in, one a segment by its record's index (the first
  /// filter is record 1's); `nil` for a pack without them (written before them) or whose first
  /// record does not read: its segments are then opened, and their damage found there.
  static func filters(ofPackAt place: SegmentPlace, in store: EncryptedStore) -> [SegmentFilter?]? {
    guard place.count > 2 else { return nil }
    do {
      guard
        let record = try store.readFirstRecord(
          of: StoreLayout.segmentPack(place.pack), count: place.count)
      else { return nil }
      return try filters(inRecord: record, count: place.count - 2)
    } catch {
      return nil
    }
  }

  /// The directory of a pack of the segments numbered `numbers`, in order (`magic`: of a pack
  /// with filters, or of one without).
  static func directory(_ numbers: [Int], magic: String = directoryMagic) -> [UInt8] {
    var writer = BinaryWriter(magic: magic)
    writer.integer(numbers.count)
    for number in numbers { writer.integer(number) }
    return writer.bytes
  }

  /// The segments pack `number` holds, each its number and its place, read from its directory.
  ///
  /// - Throws: the store's errors for a pack that does not open, and
  ///   ``StoreError/unreadableContent(path:detail:)`` for a directory or filters that do not
  ///   decode.
  static func contents(of number: Int, in store: EncryptedStore) throws -> [(
    number: Int, place: SegmentPlace
  )] {
    let name = StoreLayout.segmentPack(number)
    guard let records = try store.readBundle(name), let last = records.last else { return [] }
    do {
      let (numbers, filtered) = try Self.numbers(inDirectory: last.record, records: records.count)
      let segments = records.dropLast().dropFirst(filtered ? 1 : 0)
      if filtered {
        _ = try filters(inRecord: records[0].record, count: segments.count)
      }
      return zip(numbers, segments).map { ($0, SegmentPlace(pack: number, place: $1.place)) }
    } catch {
      throw StoreError.unreadableContent(path: store.url(for: name).path, detail: error.detail)
    }
  }

  /// The segment numbers a pack's directory lists, the last of `records` records, and whether
  /// the pack's first record is its filters (then it lists `records - 2`, else `records - 1`).
  static func numbers(inDirectory bytes: [UInt8], records: Int) throws(BinaryReader.Malformed)
    -> (numbers: [Int], filtered: Bool)
  {
    let filtered: Bool
    var reader: BinaryReader
    if let found = BinaryReader(bytes, magic: directoryMagic) {
      (reader, filtered) = (found, true)
    } else if let found = BinaryReader(bytes, magic: firstDirectoryMagic) {
      (reader, filtered) = (found, false)
    } else {
      throw BinaryReader.Malformed(detail: "not a segment pack's directory")
    }
    let count = records - (filtered ? 2 : 1)
    guard count >= 0, try reader.integer() == count else {
      throw BinaryReader.Malformed(detail: "a directory of another count of segments")
    }
    let numbers = try (0..<count).map { _ throws(BinaryReader.Malformed) in try reader.integer() }
    guard reader.isAtEnd else { throw BinaryReader.Malformed(detail: "bytes after the directory") }
    return (numbers, filtered)
  }

  /// How many segments a pack of `records` records holds, told by one of its segments' places:
  /// a pack with filters never has a segment first. (A pack of the earlier layout whose first
  /// segment is not the one asked about is counted one short: only the choice of the packs a
  /// commit carries along uses it.)
  static func segmentCount(_ place: SegmentPlace) -> Int {
    place.count - (place.index == 0 ? 1 : 2)
  }
}
