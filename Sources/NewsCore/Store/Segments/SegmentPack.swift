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
/// quarter of its time in the kernel. A pack is a ``SealedBundle``: each segment's main file a
/// record of its own (read and decrypted alone), then a directory naming each record's segment
/// number (``directoryLayout``), so that a lost manifest is rebuilt from packs too.
///
/// The manifest says where each packed segment is (``SegmentInfo/pack``); a pack is live while
/// it lists one of them. A commit moves the live segments of packs left half empty, and of the
/// newest packs no more than twice its own, into its new pack (``ArticleSegments``): a segment is
/// carried a logarithmic number of times, and the packs on disk hold at most about twice what is
/// live.
enum SegmentPack {
  static let directoryMagic = "NSK1"
  /// A pack's directory, described once: a count of segments, each its number.
  static let directoryLayout = BinaryLayout(magic: directoryMagic, fields: [.integer])

  /// The number in a pack's name, `nil` for other files.
  static func number(inFileName name: String) -> Int? {
    guard name.hasPrefix(StoreLayout.segmentPackPrefix) else { return nil }
    return Int(name.dropFirst(StoreLayout.segmentPackPrefix.count))
  }

  /// Writes `segments` (each made by `main` when its turn comes, so that one is held as
  /// plaintext at a time) as the new pack `number`, and answers each one's info with its place.
  static func write(
    number: Int, segments: [SegmentInfo], main: (SegmentInfo) throws -> [UInt8],
    in files: EncryptedStore.Transaction
  ) throws -> [SegmentInfo] {
    let places = try files.createBundle(
      count: segments.count + 1, name: StoreLayout.segmentPack(number)
    ) { index, _ in
      guard index < segments.count else { return directory(segments.map(\.number)) }
      return try main(segments[index])
    }
    return zip(segments, places).map { segment, place in
      var packed = segment
      packed.pack = SegmentPlace(pack: number, place: place)
      return packed
    }
  }

  /// The directory of a pack of the segments numbered `numbers`, in order.
  static func directory(_ numbers: [Int]) -> [UInt8] {
    var writer = BinaryWriter(magic: directoryMagic)
    writer.integer(numbers.count)
    for number in numbers { writer.integer(number) }
    return writer.bytes
  }

  /// The segments pack `number` holds, each its number and its place, read from its directory.
  ///
  /// - Throws: the store's errors for a pack that does not open, and
  ///   ``StoreError/unreadableContent(path:detail:)`` for a directory that does not decode.
  static func contents(of number: Int, in store: EncryptedStore) throws -> [(
    number: Int, place: SegmentPlace
  )] {
    let name = StoreLayout.segmentPack(number)
    guard let records = try store.readBundle(name), let last = records.last else { return [] }
    let numbers: [Int]
    do {
      numbers = try Self.numbers(inDirectory: last.record, count: records.count - 1)
    } catch {
      throw StoreError.unreadableContent(path: store.url(for: name).path, detail: error.detail)
    }
    return zip(numbers, records).map { ($0, SegmentPlace(pack: number, place: $1.place)) }
  }

  /// The segment numbers a pack's directory lists: `count` of them.
  static func numbers(inDirectory bytes: [UInt8], count: Int) throws(BinaryReader.Malformed)
    -> [Int]
  {
    guard var reader = BinaryReader(bytes, magic: directoryMagic) else {
      throw BinaryReader.Malformed(detail: "not a segment pack's directory")
    }
    guard try reader.integer() == count else {
      throw BinaryReader.Malformed(detail: "a directory of another count of segments")
    }
    let numbers = try (0..<count).map { _ throws(BinaryReader.Malformed) in try reader.integer() }
    guard reader.isAtEnd else { throw BinaryReader.Malformed(detail: "bytes after the directory") }
    return numbers
  }
}
