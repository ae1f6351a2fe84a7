/// One file of item numbers: `(key, number)` pairs sorted by key, where the key is the article
/// id's 64-bit hash (``ReadMarks/key(_:)``, the read marks' key), written as fixed-width
/// little-endian pairs after a 4-byte magic: at a million articles the 64 files hold 16 MB and
/// read in a pass, with no dictionary of strings built.
struct ItemNumberShard: Equatable {
  static let magic = Array("NUM1".utf8)

  /// The keys, sorted.
  private(set) var keys: [UInt64] = []
  /// The number of each key.
  private(set) var numbers: [Int64] = []

  init() {}

  /// The shard `bytes` hold.
  ///
  /// - Throws: ``BinaryReader/Malformed`` when they are not one.
  init(_ bytes: [UInt8]) throws(BinaryReader.Malformed) {
    guard bytes.starts(with: Self.magic), (bytes.count - 4) % 16 == 0 else {
      throw BinaryReader.Malformed(detail: "not a file of item numbers")
    }
    let count = (bytes.count - 4) / 16
    keys.reserveCapacity(count)
    numbers.reserveCapacity(count)
    bytes.withUnsafeBytes { raw in
      for index in 0..<count {
        let offset = 4 + index * 16
        keys.append(
          UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        numbers.append(
          Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 8, as: Int64.self)))
      }
    }
    guard zip(keys, keys.dropFirst()).allSatisfy({ $0 < $1 }) else {
      throw BinaryReader.Malformed(detail: "item numbers out of order")
    }
  }

  /// The bytes of the file.
  var encoded: [UInt8] {
    var bytes = Self.magic
    bytes.reserveCapacity(4 + keys.count * 16)
    for (key, number) in zip(keys, numbers) {
      withUnsafeBytes(of: key.littleEndian) { bytes += $0 }
      withUnsafeBytes(of: number.littleEndian) { bytes += $0 }
    }
    return bytes
  }

  var count: Int { keys.count }

  /// The greatest number held (0 for none).
  var greatest: Int64 { numbers.max() ?? 0 }

  /// The number of `key`, if it has one.
  func number(of key: UInt64) -> Int64? {
    let place = position(of: key)
    return place < keys.count && keys[place] == key ? numbers[place] : nil
  }

  /// Adds `pairs` (keys it does not hold yet), in one merge.
  mutating func add(_ pairs: [(key: UInt64, number: Int64)]) {
    let added = pairs.sorted { $0.key < $1.key }
    var mergedKeys: [UInt64] = []
    var mergedNumbers: [Int64] = []
    mergedKeys.reserveCapacity(keys.count + added.count)
    mergedNumbers.reserveCapacity(keys.count + added.count)
    var old = 0
    for pair in added {
      while old < keys.count, keys[old] < pair.key {
        mergedKeys.append(keys[old])
        mergedNumbers.append(numbers[old])
        old += 1
      }
      mergedKeys.append(pair.key)
      mergedNumbers.append(pair.number)
    }
    mergedKeys += keys[old...]
    mergedNumbers += numbers[old...]
    keys = mergedKeys
    numbers = mergedNumbers
  }

  /// Keeps only the keys `keep` accepts; whether any went.
  mutating func retain(_ keep: (UInt64) -> Bool) -> Bool {
    let before = keys.count
    var kept: [(UInt64, Int64)] = []
    for (key, number) in zip(keys, numbers) where keep(key) { kept.append((key, number)) }
    keys = kept.map(\.0)
    numbers = kept.map(\.1)
    return keys.count != before
  }

  /// The first place whose key is not less than `key`.
  private func position(of key: UInt64) -> Int {
    var low = 0
    var high = keys.count
    while low < high {
      let middle = (low + high) / 2
      if keys[middle] < key { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
