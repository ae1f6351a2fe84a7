import Foundation

/// Which articles have been read: for each, when it was marked read or last listed while read.
///
/// Fixed-width records sorted by a 64-bit hash of the article id (8 bytes of hash, 4 of time, in
/// seconds since 1970), kept in ``shardCount`` files by the hash's first byte (`read-00` …
/// `read-ff`, see ``ArticleStore/readMarks(of:)``): a list of 20 opens the few files its ids hash
/// to, each a decryption and two copies, and asking whether an id is read is a binary search, so
/// a list of 20 costs about the same with 100,000 marks as with none (the JSON dictionary of the
/// first version took 600 ms to decode at that size; one file of every mark, the second, 6 ms).
/// Two ids sharing a hash would share a mark: at 100,000 marks the chance of any such pair is
/// about one in four billion.
///
/// A mark outlives its article's retention: it is dropped only once it has been neither set nor
/// listed for ``lifetime(for:)`` (90 days, or the retention age when that is longer), so an item
/// a feed keeps listing stays read however long it is listed.
public struct ReadMarks: Sendable, Equatable {
  /// The files of marks that could not be read (damaged): their marks count as none, the
  /// others as they are (`news doctor --repair` replaces them). Empty when every file read.
  public internal(set) var unreadableFiles: [String] = []
  /// Hashes of the marked ids, ascending.
  private var keys: [UInt64] = []
  /// When each was stamped, in seconds since 1970, in the order of `keys`.
  private var stamps: [UInt32] = []

  /// No marks.
  public init() {}

  /// What a damaged file of marks at `path` costs, and what mends it.
  static func damage(_ path: String) -> StoreDamage {
    StoreDamage(
      path: path, leftOut: "the read marks in it are lost: the articles they marked show unread",
      advice: .repairStore(does: "replaces the file"))
  }

  /// How many articles are marked read.
  public var count: Int { keys.count }

  /// Whether no article is marked.
  var isEmpty: Bool { keys.isEmpty }

  // MARK: Shards

  /// How many files the marks are kept in.
  static let shardCount = 256

  /// The shard holding `key`: its first byte.
  static func shard(of key: UInt64) -> Int { Int(truncatingIfNeeded: key >> 56) }

  /// The shards holding the marks of `ids`.
  static func shards(of ids: some Sequence<String>) -> Set<Int> {
    Set(ids.lazy.map { shard(of: key($0)) })
  }

  /// The marks of shard `index`.
  func shard(_ index: Int) -> ReadMarks {
    let start = position(of: UInt64(index) << 56).index
    let end = index + 1 < Self.shardCount ? position(of: UInt64(index + 1) << 56).index : keys.count
    var part = ReadMarks()
    part.keys = Array(keys[start..<end])
    part.stamps = Array(stamps[start..<end])
    return part
  }

  /// The marks of `parts`, shards in ascending order.
  init(joining parts: [ReadMarks]) {
    guard parts.count != 1 else {
      self = parts[0]
      return
    }
    keys.reserveCapacity(parts.reduce(0) { $0 + $1.count })
    stamps.reserveCapacity(keys.capacity)
    for part in parts {
      keys += part.keys
      stamps += part.stamps
    }
  }

  /// Whether the article with `id` is marked read.
  public func contains(_ id: String) -> Bool { position(of: Self.key(id)).found }

  /// The ids of `ids` that are marked read.
  public func marked(_ ids: some Sequence<String>) -> Set<String> {
    Set(ids.filter(contains))
  }

  /// When `id` was last stamped (seconds since 1970), if it is marked.
  func stamp(of id: String) -> Double? {
    let (index, found) = position(of: Self.key(id))
    return found ? Double(stamps[index]) : nil
  }

  /// Marks `ids` read at `stamp`; returns how many were not marked yet. Linear in the marks plus
  /// the ids (a merge), so `news read --all` of 100,000 costs what one pass costs.
  @discardableResult
  mutating func mark(_ ids: some Sequence<String>, stamp: Double) -> Int {
    let time = Self.time(stamp)
    let incoming = Set(ids.map(Self.key)).sorted()
    guard !incoming.isEmpty else { return 0 }
    var mergedKeys: [UInt64] = []
    var mergedStamps: [UInt32] = []
    mergedKeys.reserveCapacity(keys.count + incoming.count)
    mergedStamps.reserveCapacity(keys.count + incoming.count)
    var added = 0
    var old = 0
    for key in incoming {
      while old < keys.count, keys[old] < key {
        mergedKeys.append(keys[old])
        mergedStamps.append(stamps[old])
        old += 1
      }
      if old < keys.count, keys[old] == key { old += 1 } else { added += 1 }
      mergedKeys.append(key)
      mergedStamps.append(time)
    }
    mergedKeys.append(contentsOf: keys[old...])
    mergedStamps.append(contentsOf: stamps[old...])
    keys = mergedKeys
    stamps = mergedStamps
    return added
  }

  /// Removes the marks of `ids`; returns how many there were.
  @discardableResult
  mutating func unmark(_ ids: some Sequence<String>) -> Int {
    let removing = Set(ids.map(Self.key))
    let before = keys.count
    filter { !removing.contains($0) }
    return before - keys.count
  }

  /// Stamps again the marks of `ids` that exist and are older than ``restampAfter`` at `stamp`;
  /// returns whether any was.
  mutating func restamp(_ ids: some Sequence<String>, stamp: Double) -> Bool {
    let time = Self.time(stamp)
    var changed = false
    for id in ids {
      let (index, found) = position(of: Self.key(id))
      if found, Double(time) - Double(stamps[index]) > Self.restampAfter {
        stamps[index] = time
        changed = true
      }
    }
    return changed
  }

  /// Whether any of `ids` is marked with a stamp older than ``restampAfter`` at `stamp`.
  func needsRestamp(_ ids: some Sequence<String>, stamp: Double) -> Bool {
    ids.contains { id in
      guard let marked = self.stamp(of: id) else { return false }
      return stamp - marked > Self.restampAfter
    }
  }

  /// How long a mark lives without being set or listed again.
  static func lifetime(for retention: RetentionPolicy) -> Double {
    max(90 * 86_400, retention.maximumAge.seconds)
  }

  /// A listed mark older than this is stamped again (so at most one write a day for it).
  static let restampAfter: Double = 86_400

  /// Drops the marks older than `lifetime` at `now` (a scan, and nothing more when none is).
  mutating func prune(now: Date, lifetime: Double) {
    let oldest = now.timeIntervalSince1970 - lifetime
    guard stamps.contains(where: { Double($0) < oldest }) else { return }
    var index = 0
    let stamps = self.stamps
    filter { _ in
      defer { index += 1 }
      return Double(stamps[index]) >= oldest
    }
  }

  // MARK: Changes, as the log records them

  /// A stamp in the log that means "no longer marked".
  static let removed = UInt32.max

  /// What changed from `self` to `other`: each key now marked with a new stamp, each key no
  /// longer marked with ``removed``. A merge of the two sorted arrays.
  func changes(to other: ReadMarks) -> [(key: UInt64, stamp: UInt32)] {
    var changes: [(key: UInt64, stamp: UInt32)] = []
    var old = 0
    var new = 0
    while old < keys.count || new < other.keys.count {
      if new == other.keys.count || (old < keys.count && keys[old] < other.keys[new]) {
        changes.append((keys[old], Self.removed))
        old += 1
      } else if old == keys.count || other.keys[new] < keys[old] {
        changes.append((other.keys[new], other.stamps[new]))
        new += 1
      } else {
        if stamps[old] != other.stamps[new] { changes.append((other.keys[new], other.stamps[new])) }
        old += 1
        new += 1
      }
    }
    return changes
  }

  /// The marks with `changes` applied in order (a later change of a key wins).
  func applying(_ changes: [(key: UInt64, stamp: UInt32)]) -> ReadMarks {
    guard !changes.isEmpty else { return self }
    var last: [UInt64: UInt32] = [:]
    for change in changes { last[change.key] = change.stamp }
    let incoming = last.keys.sorted()
    var result = ReadMarks()
    result.keys.reserveCapacity(keys.count + incoming.count)
    result.stamps.reserveCapacity(keys.count + incoming.count)
    var old = 0
    for key in incoming {
      while old < keys.count, keys[old] < key {
        result.keys.append(keys[old])
        result.stamps.append(stamps[old])
        old += 1
      }
      if old < keys.count, keys[old] == key { old += 1 }
      let stamp = last[key]!
      if stamp != Self.removed {
        result.keys.append(key)
        result.stamps.append(stamp)
      }
    }
    result.keys.append(contentsOf: keys[old...])
    result.stamps.append(contentsOf: stamps[old...])
    return result
  }

  private mutating func filter(_ keep: (UInt64) -> Bool) {
    var keptKeys: [UInt64] = []
    var keptStamps: [UInt32] = []
    for index in keys.indices where keep(keys[index]) {
      keptKeys.append(keys[index])
      keptStamps.append(stamps[index])
    }
    keys = keptKeys
    stamps = keptStamps
  }

  private func position(of key: UInt64) -> (index: Int, found: Bool) {
    var low = 0
    var high = keys.count
    while low < high {
      let middle = (low + high) / 2
      if keys[middle] < key { low = middle + 1 } else { high = middle }
    }
    return (low, low < keys.count && keys[low] == key)
  }

  /// FNV-1a over the id's UTF-8 bytes, then a final mix (so that ids differing in their last
  /// bytes spread over the whole range).
  static func key(_ id: String) -> UInt64 {
    // Over the contiguous bytes: walking the UTF-8 view byte by byte cost several times the
    // hash itself (a list of 200,000 items asks it of each).
    var id = id
    return id.withUTF8 { key(utf8: $0) }
  }

  /// ``key(_:)`` of the id whose UTF-8 bytes are `bytes` (an id read from a file, not made a
  /// string).
  static func key(utf8 bytes: some Sequence<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    hash ^= hash >> 33
    hash &*= 0xff51_afd7_ed55_8ccd
    hash ^= hash >> 33
    return hash
  }

  static func time(_ stamp: Double) -> UInt32 {
    UInt32(clamping: Int64(max(0, min(stamp, Double(UInt32.max)))))
  }

  // MARK: The file

  static let magic = "NRM1"

  /// The file's bytes: the magic, the count, then the keys and the stamps (little-endian).
  var encoded: [UInt8] {
    var writer = BinaryWriter(magic: Self.magic)
    writer.integer(keys.count)
    var bytes = writer.bytes
    bytes.reserveCapacity(bytes.count + keys.count * 12)
    #if _endian(big)
      let keys = keys.map(\.littleEndian)
      let stamps = stamps.map(\.littleEndian)
    #endif
    keys.withUnsafeBytes { bytes.append(contentsOf: $0) }
    stamps.withUnsafeBytes { bytes.append(contentsOf: $0) }
    return bytes
  }

  /// Reads the file's bytes: this format, or the JSON dictionary (id → seconds) of earlier
  /// versions.
  init(decoding bytes: [UInt8]) throws(BinaryReader.Malformed) {
    guard var reader = BinaryReader(bytes, magic: Self.magic) else {
      struct Earlier: Decodable { var marks: [String: Double] }
      do {
        let earlier = try JSONDecoder().decode(Earlier.self, from: Data(bytes))
        let pairs = earlier.marks.map { (Self.key($0.key), Self.time($0.value)) }.sorted {
          $0.0 < $1.0
        }
        for (key, time) in pairs {
          if keys.last == key {
            stamps[stamps.count - 1] = max(stamps[stamps.count - 1], time)
          } else {
            keys.append(key)
            stamps.append(time)
          }
        }
      } catch {
        throw BinaryReader.Malformed(detail: "not a file of read marks")
      }
      return
    }
    let count = try reader.integer()
    let start = reader.offset
    guard count >= 0, count <= (bytes.count - start) / 12, bytes.count - start == count * 12 else {
      throw BinaryReader.Malformed(detail: "read marks of the wrong length")
    }
    // Copied as they lie (the file is little-endian, as the machines it runs on are).
    bytes.withUnsafeBytes { raw in
      keys = [UInt64](unsafeUninitializedCapacity: count) { buffer, initialized in
        UnsafeMutableRawBufferPointer(buffer).copyMemory(
          from: UnsafeRawBufferPointer(rebasing: raw[start..<(start + count * 8)]))
        initialized = count
      }
      stamps = [UInt32](unsafeUninitializedCapacity: count) { buffer, initialized in
        UnsafeMutableRawBufferPointer(buffer).copyMemory(
          from: UnsafeRawBufferPointer(
            rebasing: raw[(start + count * 8)..<(start + count * 12)]))
        initialized = count
      }
    }
    #if _endian(big)
      keys = keys.map { UInt64(littleEndian: $0) }
      stamps = stamps.map { UInt32(littleEndian: $0) }
    #endif
    var ordered = true
    for index in keys.indices.dropFirst() where keys[index - 1] >= keys[index] {
      ordered = false
      break
    }
    guard ordered else { throw BinaryReader.Malformed(detail: "read marks out of order") }
  }
}
