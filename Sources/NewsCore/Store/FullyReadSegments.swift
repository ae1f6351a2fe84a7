/// The segments every article of which was read when a query last looked (store file
/// `fully-read`): what `is:unread` passes over without opening them, so that a store of a
/// million articles, all read, answers it without reading a million ids and marks.
///
/// A segment's articles never change (a compaction writes a new segment, under a new number),
/// and marking articles read only adds marks; so a segment read through stays so until an
/// article is marked unread, or the oldest of its marks outlives ``ReadMarks/lifetime(for:)``.
/// Each segment is kept with the stamp of its oldest mark, checked against the lifetime when
/// read; every write that removes a mark (``ArticleStore/markUnread(_:counting:)``, a mark
/// from an account, a repair of a damaged file of marks) writes the file again empty, under a
/// new ``epoch``, which also turns away what a query that read the marks before it would add.
struct FullyReadSegments: Equatable {
  /// Changes whenever a mark is removed: a query keeps what it found only under the epoch it
  /// read before reading the marks.
  var epoch: Int
  /// Each segment read through, by number, with the stamp of its oldest mark (seconds since
  /// 1970).
  var oldestMark: [Int: UInt32] = [:]

  static let fileName = StoreLayout.fullyRead

  /// None, under a new random epoch.
  static func fresh() -> FullyReadSegments {
    let bytes = SecureRandom.bytes(6)
    return FullyReadSegments(epoch: bytes.reduce(0) { $0 << 8 | Int($1) })
  }

  /// Whether segment `number` was read through, and none of its marks has expired by `now`.
  func covers(_ number: Int, now: Double, lifetime: Double) -> Bool {
    guard let oldest = oldestMark[number] else { return false }
    return Double(oldest) + lifetime > now
  }

  private static let magic = "NFR1"

  /// The magic, the epoch, the count, then each segment's number and oldest stamp.
  var encoded: [UInt8] {
    var writer = BinaryWriter(magic: Self.magic)
    writer.integer(epoch)
    writer.integer(oldestMark.count)
    for (number, stamp) in oldestMark.sorted(by: { $0.key < $1.key }) {
      writer.integer(number)
      writer.integer(Int(stamp))
    }
    return writer.bytes
  }

  init(epoch: Int, oldestMark: [Int: UInt32] = [:]) {
    self.epoch = epoch
    self.oldestMark = oldestMark
  }

  init(decoding bytes: [UInt8]) throws(BinaryReader.Malformed) {
    guard var reader = BinaryReader(bytes, magic: Self.magic) else {
      throw BinaryReader.Malformed(detail: "not a list of segments read through")
    }
    epoch = try reader.integer()
    let count = try reader.integer()
    // Each entry takes two bytes at least.
    guard count <= bytes.count / 2 else {
      throw BinaryReader.Malformed(detail: "a list of segments read through of the wrong length")
    }
    oldestMark.reserveCapacity(count)
    for _ in 0..<count {
      let number = try reader.integer()
      let stamp = try reader.integer()
      guard stamp <= Int(UInt32.max) else {
        throw BinaryReader.Malformed(detail: "a stamp out of range")
      }
      oldestMark[number] = UInt32(stamp)
    }
    guard reader.isAtEnd else {
      throw BinaryReader.Malformed(detail: "bytes after the list of segments read through")
    }
  }
}
