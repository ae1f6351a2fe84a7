/// Which three-byte runs the index words of one small segment hold, in a Bloom filter kept in
/// its pack (``SegmentPack``): a search asks it before opening the segment, and passes over a
/// segment none of whose words can hold a run the query needs. At ten thousand sources a search
/// for a rare word otherwise opens and decrypts every source's segment.
///
/// The filter holds each index word's three-byte windows, with its field (``IndexRun/Field``):
/// a run held in a word has all its windows among that word's, so a segment the filter turns
/// away has no index word holding the run, and the filter only narrows, as the index does. A
/// run shorter than three bytes is never turned away.
struct SegmentFilter: Equatable, Sendable {
  /// The bits, 64 to an element.
  private(set) var bits: [UInt64]

  /// Bits a window, and probes a window: about one window in a hundred not held is taken for
  /// held, and a run of several windows rarer still.
  static let bitsPerWindow = 10
  static let probes = 5

  /// An empty filter sized for `windows` windows.
  init(windows: Int) {
    bits = Array(repeating: 0, count: max(1, (windows * Self.bitsPerWindow + 63) / 64))
  }

  /// The filter stored as `bytes` (``bytes``); `nil` when they are none, or not whole 64-bit
  /// words.
  init?(bytes: ArraySlice<UInt8>) {
    guard !bytes.isEmpty, bytes.count % 8 == 0 else { return nil }
    let start = bytes.startIndex
    bits = (0..<(bytes.count / 8)).map { word in
      (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[start + word * 8 + $1]) << (8 * $1) }
    }
  }

  /// The bits as stored: each 64-bit word's 8 bytes, little-endian.
  var bytes: [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(bits.count * 8)
    for word in bits {
      for shift in stride(from: 0, to: 64, by: 8) {
        bytes.append(UInt8(truncatingIfNeeded: word >> shift))
      }
    }
    return bytes
  }

  /// The filter of a segment's main file: its index words' windows; `nil` when `main` is not a
  /// small segment's main file, or one written before the index held authors and categories
  /// (whose words its index cannot narrow by): it is then opened whatever the query.
  init?(main: [UInt8]) {
    guard let (reader, layout) = SegmentBuilder.mainReader(main), layout.fieldWords else {
      return nil
    }
    var windows = Set<UInt32>()
    do {
      var reader = reader
      _ = try reader.integer()
      guard try reader.integer() == 0 else { return nil }
      _ = try reader.integer()
      let count = try reader.integer()
      for _ in 0..<count {
        Self.windows(ofIndexWord: main[try reader.dataRange()]) { windows.insert($0) }
      }
    } catch {
      return nil
    }
    self.init(windows: windows)
  }

  /// The filter of the index words `words` (a field's behind its marker byte).
  init(indexWords words: some Sequence<[UInt8]>) {
    var windows = Set<UInt32>()
    for word in words { Self.windows(ofIndexWord: word[...]) { windows.insert($0) } }
    self.init(windows: windows)
  }

  /// The filter holding `windows`.
  private init(windows: Set<UInt32>) {
    self.init(windows: windows.count)
    for window in windows { insert(window) }
  }

  /// Calls `body` with the key of each window of the index word `word` (a field's behind its
  /// marker byte).
  private static func windows(ofIndexWord word: ArraySlice<UInt8>, _ body: (UInt32) -> Void) {
    var field = IndexRun.Field.text
    var start = word.startIndex
    if let first = word.first, first != 0, let found = IndexRun.Field(rawValue: first) {
      field = found
      start += 1
    }
    forEachWindow(word[start...], field: field, body)
  }

  /// Calls `body` with the key of each three-byte window of `bytes`, of `field`.
  static func forEachWindow(
    _ bytes: ArraySlice<UInt8>, field: IndexRun.Field, _ body: (UInt32) -> Void
  ) {
    guard bytes.count >= 3 else { return }
    let base = UInt32(field.rawValue) << 24
    var index = bytes.startIndex
    while index + 2 < bytes.endIndex {
      body(
        base | UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
          | UInt32(bytes[index + 2]))
      index += 1
    }
  }

  mutating func insert(_ key: UInt32) {
    let count = UInt64(bits.count * 64)
    Self.forEachProbe(key, bits: count) { bits[Int($0 / 64)] |= 1 << ($0 % 64) }
  }

  func contains(_ key: UInt32) -> Bool {
    let count = UInt64(bits.count * 64)
    var all = true
    Self.forEachProbe(key, bits: count) {
      if bits[Int($0 / 64)] & (1 << ($0 % 64)) == 0 { all = false }
    }
    return all
  }

  /// Whether some index word of the segment may hold `run`: `false` only when none does.
  func mayHold(_ run: IndexRun) -> Bool {
    var all = true
    Self.forEachWindow(run.bytes[...], field: run.field) { if all, !contains($0) { all = false } }
    return all
  }

  /// Whether the segment may hold a record every run of one of `branches` narrows to (as
  /// ``SegmentReader/records(holdingAny:)`` asks its index); no branch: every record may.
  func mayHold(any branches: [[IndexRun]]) -> Bool {
    branches.isEmpty || branches.contains { $0.allSatisfy(mayHold) }
  }

  /// The positions of `key`'s probes among `bits` bits: two halves of one mixed 64-bit hash
  /// (the same in every process and version: the filter is stored).
  @inline(__always)
  private static func forEachProbe(_ key: UInt32, bits: UInt64, _ body: (UInt64) -> Void) {
    var mixed = UInt64(key) &+ 0x9E37_79B9_7F4A_7C15
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    mixed ^= mixed >> 31
    let first = mixed & 0xFFFF_FFFF
    let step = (mixed >> 32) | 1
    for probe in 0..<UInt64(probes) { body((first &+ probe &* step) % bits) }
  }
}
