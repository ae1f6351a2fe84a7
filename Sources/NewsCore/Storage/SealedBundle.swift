/// The layout of a store file of several records sealed one by one, so that one record is read
/// and decrypted without the others (a batch of feed cache entries):
///
///     "NEWB" (4 bytes) | version (1 byte, 1) | record count (4 bytes, little-endian)
///     then, for each record: its sealed length (4 bytes, little-endian) | the sealed record
///
/// Each record is an ``EncryptedFileFormat`` file of its own, sealed under the name
/// `<file>#<index>/<count>`: a record moved to another place, another file or a file of another
/// count does not open, nor does a file cut short.
enum SealedBundle {
  static let magic: [UInt8] = Array("NEWB".utf8)
  static let version: UInt8 = 1
  /// The magic, the version and the count.
  static let headerLength = 9

  /// Where a record is in its file.
  struct Place: Sendable, Equatable {
    /// Its index among the file's records.
    var index: Int
    /// How many records the file holds.
    var count: Int
    /// Where its sealed bytes start in the file.
    var offset: Int
    /// How many sealed bytes it has.
    var length: Int
  }

  /// The name record `index` of `count` of the file `name` is sealed under.
  static func recordName(_ name: String, _ index: Int, of count: Int) -> String {
    name + "#" + String(index) + "/" + String(count)
  }

  /// Whether `bytes` (a file's first bytes at least) are a bundle's.
  static func isBundle(_ bytes: [UInt8]) -> Bool { bytes.starts(with: magic) }

  /// The file of `count` records, each made by `record` when its turn comes (so that only one
  /// is held as plaintext; told where the records before it are) and sealed with a nonce of its
  /// own, and where each is in it.
  static func seal(
    count: Int, name: String, key: [UInt8], nonce: () -> [UInt8],
    record: (_ index: Int, _ placesBefore: [Place]) throws -> [UInt8]
  ) rethrows -> (bytes: [UInt8], places: [Place]) {
    var bytes = magic + [version]
    append(UInt32(count), to: &bytes)
    var places: [Place] = []
    places.reserveCapacity(count)
    for index in 0..<count {
      let sealed = EncryptedFileFormat.seal(
        try record(index, places), name: recordName(name, index, of: count), key: key,
        nonce: nonce())
      append(UInt32(sealed.count), to: &bytes)
      places.append(Place(index: index, count: count, offset: bytes.count, length: sealed.count))
      bytes += sealed
    }
    return (bytes, places)
  }

  /// Opens the sealed bytes of the record at `place` of the file `name`, in place.
  static func open(_ sealed: inout [UInt8], at place: Place, name: String, key: [UInt8])
    throws(EncryptedFileFormat.Failure)
  {
    try EncryptedFileFormat.open(
      &sealed, name: recordName(name, place.index, of: place.count), key: key)
  }

  /// Where each record of the whole file `bytes` is, read from its lengths; the file must end
  /// with its last record.
  static func places(in bytes: [UInt8]) throws(EncryptedFileFormat.Failure) -> [Place] {
    guard bytes.count >= headerLength, isBundle(bytes) else { throw .notAStoreFile }
    guard bytes[4] == version else { throw .unsupportedVersion(bytes[4]) }
    let count = Int(number(in: bytes, at: 5))
    var places: [Place] = []
    var offset = headerLength
    for index in 0..<count {
      guard bytes.count - offset >= 4 else { throw .authenticationFailed }
      let length = Int(number(in: bytes, at: offset))
      offset += 4
      guard bytes.count - offset >= length else { throw .authenticationFailed }
      places.append(Place(index: index, count: count, offset: offset, length: length))
      offset += length
    }
    guard offset == bytes.count else { throw .authenticationFailed }
    return places
  }

  /// How many of a file's first bytes ``firstPlace(inHeader:count:)`` reads.
  static let firstPlaceLength = headerLength + 4

  /// Where the first record of a file of `count` records is, read from the file's first
  /// ``firstPlaceLength`` bytes; `nil` when they are not a bundle's of `count` records.
  static func firstPlace(inHeader bytes: [UInt8], count: Int) -> Place? {
    guard bytes.count >= firstPlaceLength, isBundle(bytes), bytes[4] == version,
      count > 0, Int(number(in: bytes, at: 5)) == count
    else { return nil }
    return Place(
      index: 0, count: count, offset: firstPlaceLength,
      length: Int(number(in: bytes, at: headerLength)))
  }

  /// Every record of the whole file `bytes`, opened, with its place.
  static func openAll(_ bytes: [UInt8], name: String, key: [UInt8])
    throws(EncryptedFileFormat.Failure) -> [(place: Place, record: [UInt8])]
  {
    var records: [(place: Place, record: [UInt8])] = []
    for place in try places(in: bytes) {
      var sealed = Array(bytes[place.offset..<(place.offset + place.length)])
      try open(&sealed, at: place, name: name, key: key)
      records.append((place, sealed))
    }
    return records
  }

  /// Checks that every record of the whole file `bytes` is authentic, without decrypting.
  static func verify(_ bytes: [UInt8], name: String, key: [UInt8])
    throws(EncryptedFileFormat.Failure)
  {
    for place in try places(in: bytes) {
      try EncryptedFileFormat.verify(
        Array(bytes[place.offset..<(place.offset + place.length)]),
        name: recordName(name, place.index, of: place.count), key: key)
    }
  }

  private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
    for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8((value >> shift) & 0xFF)) }
  }

  private static func number(in bytes: [UInt8], at offset: Int) -> UInt32 {
    (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
  }
}
