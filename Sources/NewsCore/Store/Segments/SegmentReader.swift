import Foundation

/// A segment listed in the manifest has a file missing: a compaction replaced it since the
/// manifest was read (the reader starts again), or the store was damaged.
struct SegmentFileMissing: Error {
  var name: String
}

/// An opened segment: its main file read, its parts read when asked for.
struct SegmentReader {
  let info: SegmentInfo
  private let store: EncryptedStore
  /// Where its main file and chunks are kept decrypted between reads, if anywhere.
  private let files: SegmentFiles?
  private let main: [UInt8]
  /// Where the index words start in `main` (each its length, then its bytes); they are read
  /// where they are, not listed (a segment of a million articles holds a million words).
  private let wordsStart: Int
  /// How many words its index holds.
  let wordCount: Int
  /// The first word of each bucket file (split segments).
  private let bucketStarts: [Int]
  /// Where the postings start in `main` (segments of one file).
  private let inlinePostings: Int
  /// Where the records start in `main` (segments of one file).
  private let inlineRecords: Int
  /// Whether the records in `main` carry their categories (``SegmentBuilder/mainMagic``).
  private let inlineCategorized: Bool
  /// The numbers of the index words of each field (``IndexRun/Field``, by raw value); a
  /// segment written before the index held authors and categories has only text words.
  private let fieldWords: [Range<Int>?]
  /// Each chunk's newest publication date (``SegmentInfo/undated`` for a chunk without one);
  /// `nil` for a segment of one file, or one written before chunks carried dates.
  let chunkNewest: [Double]?

  /// Opens the segment's main file (kept in `files`, or read from there, when given).
  init(_ info: SegmentInfo, in store: EncryptedStore, files: SegmentFiles? = nil) throws {
    self.info = info
    self.store = store
    self.files = files
    let main =
      try files?.bytes(info.mainName, of: info) { try Self.main(of: info, in: store) }
      ?? Self.main(of: info, in: store)
    self.main = main
    let found = SegmentBuilder.mainReader(main)
    let layout = found?.layout ?? SegmentBuilder.MainLayout()
    let parsed = try Self.decoding(info.mainFile, in: store) {
      () throws(BinaryReader.Malformed) -> Parsed in
      guard var reader = found?.reader else {
        throw BinaryReader.Malformed(detail: "not a segment")
      }
      let count = try reader.integer()
      let chunks = try reader.integer()
      let buckets = try reader.integer()
      guard count == info.count, chunks == info.chunks, buckets == info.buckets else {
        throw BinaryReader.Malformed(detail: "not the segment the manifest lists")
      }
      let wordCount = try reader.integer()
      guard wordCount <= main.count else { throw BinaryReader.Malformed(detail: "bad word count") }
      let wordsStart = reader.offset
      // How many words lead with each field's marker (they sort first), author then category.
      var fieldEnds = [0, 0]
      for number in 0..<wordCount {
        let word = try reader.dataRange()
        guard layout.fieldWords, let first = word.first else { continue }
        if main[first] <= IndexRun.Field.author.rawValue { fieldEnds[0] = number + 1 }
        if main[first] <= IndexRun.Field.category.rawValue { fieldEnds[1] = number + 1 }
      }
      var starts: [Int] = []
      for _ in 0..<buckets {
        let start = try reader.integer()
        guard start < wordCount, start >= (starts.last.map { $0 + 1 } ?? 0) else {
          throw BinaryReader.Malformed(detail: "bad bucket start")
        }
        starts.append(start)
      }
      guard buckets == 0 || starts.first == 0 else {
        throw BinaryReader.Malformed(detail: "bad bucket start")
      }
      var newest: [Double]?
      if layout.dated {
        guard chunks > 0 else { throw BinaryReader.Malformed(detail: "dates without chunks") }
        newest = try (0..<chunks).map { _ throws(BinaryReader.Malformed) in try reader.double() }
      }
      let postings = reader.offset
      if chunks == 0 {
        for _ in 0..<wordCount { _ = try Self.readList(&reader, count: count, keep: false) }
      }
      return Parsed(
        wordsStart: wordsStart, wordCount: wordCount, fieldEnds: fieldEnds, bucketStarts: starts,
        postings: postings, records: reader.offset, chunkNewest: newest)
    }
    (wordsStart, wordCount, bucketStarts) = (
      parsed.wordsStart, parsed.wordCount, parsed.bucketStarts
    )
    (inlinePostings, inlineRecords, chunkNewest) = (
      parsed.postings, parsed.records, parsed.chunkNewest
    )
    inlineCategorized = layout.categorized
    let (authors, categories) = (parsed.fieldEnds[0], max(parsed.fieldEnds[0], parsed.fieldEnds[1]))
    fieldWords =
      layout.fieldWords
      ? [categories..<wordCount, 0..<authors, authors..<categories] : [0..<wordCount, nil, nil]
  }

  /// What opening a main file finds in it.
  private struct Parsed {
    var wordsStart: Int
    var wordCount: Int
    /// How many words lead with the author's marker, and with it or the category's.
    var fieldEnds: [Int]
    var bucketStarts: [Int]
    var postings: Int
    var records: Int
    var chunkNewest: [Double]?
  }

  /// Calls `body` with the number of each index word of `numbers` and its range in `main`, in
  /// order, reading the words where they are (their lengths were checked on opening).
  private func forEachWord(
    _ numbers: Range<Int>, _ body: (Int, Range<Int>, UnsafeBufferPointer<UInt8>) -> Void
  ) {
    main.withUnsafeBufferPointer { bytes in
      var offset = wordsStart
      for number in 0..<numbers.upperBound {
        var length = 0
        var shift = 0
        while offset < bytes.count, shift < 63 {
          let byte = bytes[offset]
          offset += 1
          length |= Int(byte & 0x7F) << shift
          if byte & 0x80 == 0 { break }
          shift += 7
        }
        guard length >= 0, length <= bytes.count - offset else { return }
        if number >= numbers.lowerBound { body(number, offset..<(offset + length), bytes) }
        offset += length
      }
    }
  }

  /// A reader of a chunk file's records, and whether they carry categories.
  private static func chunkReader(_ bytes: [UInt8]) throws(BinaryReader.Malformed) -> (
    BinaryReader, categorized: Bool
  ) {
    if let reader = BinaryReader(bytes, magic: SegmentBuilder.chunkMagic) { return (reader, true) }
    if let reader = BinaryReader(bytes, magic: SegmentBuilder.firstChunkMagic) {
      return (reader, false)
    }
    throw BinaryReader.Malformed(detail: "not a chunk")
  }

  /// What the files of segment `number` say of it, without a manifest: its ``SegmentInfo`` and
  /// the provider of its records (`nil` when it holds none). `pack`: where its main file is,
  /// when it is in a pack.
  static func describe(number: Int, pack: SegmentPlace? = nil, in store: EncryptedStore) throws
    -> (info: SegmentInfo, provider: String?)
  {
    var info = SegmentInfo(number: number, count: 0, oldestSeen: 0, chunks: 0, buckets: 0)
    info.pack = pack
    let main = try main(of: info, in: store)
    let header = try decoding(info.mainFile, in: store) {
      () throws(BinaryReader.Malformed) -> (Int, Int, Int) in
      guard var reader = SegmentBuilder.mainReader(main)?.reader else {
        throw BinaryReader.Malformed(detail: "not a segment")
      }
      return (try reader.integer(), try reader.integer(), try reader.integer())
    }
    (info.count, info.chunks, info.buckets) = header
    let segment = try SegmentReader(info, in: store)
    var records: [StoredArticle] = []
    if info.chunks == 0 {
      records = try segment.records().map(\.record)
    } else {
      // A damaged chunk costs its own records: what the others hold is described (and repair
      // then salvages them), not the whole segment left out.
      let size = SegmentBuilder.chunkSize
      for chunk in 0..<info.chunks {
        let numbers = Set((chunk * size)..<min((chunk + 1) * size, info.count))
        if let read = try? segment.records(numbers) { records += read.map(\.record) }
      }
    }
    info.oldestSeen = records.map(\.seenAt.timeIntervalSince1970).min() ?? 0
    info.newestPublished = SegmentInfo.newestPublished(of: records)
    info.summary = SegmentSummary(of: records)
    return (info, records.first?.article.provider)
  }

  /// The records of segment `number`'s chunk files that read, in order, without its main file
  /// (damaged or gone) or a manifest: what repair salvages of a split segment whose main file
  /// is lost. The chunks are found by their names; one that does not read costs its own.
  static func salvageChunks(number: Int, in store: EncryptedStore) -> [StoredArticle] {
    let prefix = StoreLayout.segment(number, "-c")
    let chunks = store.names().compactMap { name -> Int? in
      guard name.hasPrefix(prefix) else { return nil }
      return Int(name.dropFirst(prefix.count))
    }.sorted()
    var records: [StoredArticle] = []
    for chunk in chunks {
      let name = prefix + String(chunk)
      guard let bytes = try? load(name, from: store) else { continue }
      let salvaged = try? decoding(name, in: store) {
        () throws(BinaryReader.Malformed) -> [StoredArticle] in
        var (reader, categorized) = try chunkReader(bytes)
        let count = try reader.integer()
        guard count > 0, count <= SegmentBuilder.chunkSize else {
          throw BinaryReader.Malformed(detail: "wrong record count")
        }
        var result: [(Int, StoredArticle)] = []
        try Self.read(
          &reader, count: count, first: 0, numbers: nil, categorized: categorized, into: &result)
        guard reader.isAtEnd else { throw BinaryReader.Malformed(detail: "bytes after the end") }
        return result.map(\.1)
      }
      records += salvaged ?? []
    }
    return records
  }

  /// The numbers of the index words of the run's field holding `run` as it is bounded; `nil`
  /// when the segment's index does not hold that field's words (then the run cannot narrow).
  func words(containing run: IndexRun) -> [Int]? {
    guard let numbers = fieldWords[Int(run.field.rawValue)] else { return nil }
    let marker = run.field.marker == nil ? 0 : 1
    var found: [Int] = []
    run.bytes.withUnsafeBufferPointer { needle in
      forEachWord(numbers) { number, range, bytes in
        if run.isIn(bytes, range: (range.lowerBound + marker)..<range.upperBound, needle: needle) {
          found.append(number)
        }
      }
    }
    return found
  }

  /// The records holding any of the index words numbered `wanted` (ascending), only those of
  /// `within` when given (the candidates left by another word: no set of every record holding a
  /// common word is built).
  func records(holding wanted: [Int], within: Set<Int>? = nil) throws -> Set<Int> {
    var result = Set<Int>()
    guard !wanted.isEmpty else { return result }
    if info.chunks == 0 {
      try collect(
        wanted[...], in: main, from: inlinePostings, firstWord: 0, within: within, into: &result)
      return result
    }
    for (bucket, start) in bucketStarts.enumerated() {
      let end = bucket + 1 < bucketStarts.count ? bucketStarts[bucket + 1] : wordCount
      let inBucket = wanted.filter { $0 >= start && $0 < end }
      guard !inBucket.isEmpty else { continue }
      let name = info.bucketName(bucket)
      let bytes = try Self.load(name, from: store)
      try Self.decoding(name, in: store) { () throws(BinaryReader.Malformed) in
        guard BinaryReader(bytes, magic: SegmentBuilder.bucketMagic) != nil else {
          throw BinaryReader.Malformed(detail: "not a bucket")
        }
        try collect(
          inBucket[...], in: bytes, from: SegmentBuilder.bucketMagic.utf8.count,
          firstWord: start, within: within, into: &result)
      }
    }
    return result
  }

  /// Runs `body`, naming `name` as damaged if what it reads is malformed.
  private static func decoding<T>(
    _ name: String, in store: EncryptedStore, _ body: () throws(BinaryReader.Malformed) -> T
  ) throws(StoreError) -> T {
    do {
      return try body()
    } catch {
      throw damaged(name, in: store, error)
    }
  }

  /// The records holding every run of one of `branches` at least (``records(holdingAll:)``
  /// of each, together); `nil` (every record) when a branch has no run.
  func records(holdingAny branches: [[IndexRun]]) throws -> Set<Int>? {
    guard branches.count > 1 else { return try records(holdingAll: branches.first ?? []) }
    // A run several branches share (`climate` in `climate (storm OR flood)`) is looked up once.
    var known: [IndexRun: [Int]?] = [:]
    func words(_ run: IndexRun) -> [Int]? {
      if let found = known[run] { return found }
      let found = self.words(containing: run)
      known[run] = found
      return found
    }
    var union = Set<Int>()
    for branch in branches {
      guard let some = try records(holdingAll: branch, words: words) else { return nil }
      union.formUnion(some)
    }
    return union
  }

  /// The numbers of the records whose index holds every one of `runs` (folded words, longest
  /// first); `nil` when there is no run to narrow by (every record is a candidate).
  func records(holdingAll runs: [IndexRun]) throws -> Set<Int>? {
    try records(holdingAll: runs, words: words(containing:))
  }

  /// ``records(holdingAll:)``, the index words of each run found by `words`.
  private func records(holdingAll runs: [IndexRun], words: (IndexRun) -> [Int]?) throws
    -> Set<Int>?
  {
    // The words first: a run no word holds leaves nothing, before any record list is read.
    let wordLists = runs.compactMap(words)
    if wordLists.contains(where: \.isEmpty) { return [] }
    var candidates: Set<Int>?
    for numbers in wordLists {
      candidates = try records(holding: numbers, within: candidates)
      if candidates!.isEmpty { break }
    }
    return candidates
  }

  /// The records numbered `numbers` (all of them when `nil`), with their numbers.
  func records(_ numbers: Set<Int>? = nil) throws -> [(number: Int, record: StoredArticle)] {
    try records(numbers, as: StoredArticle.self)
  }

  /// The heads of its records (``StoredHead``), in order: their text is not built.
  func heads() throws -> [StoredHead] {
    try records(nil, as: StoredHead.self).map { number, record in
      var record = record
      record.head.place = (info.number, number)
      return record
    }
  }

  /// The records numbered `numbers` (all of them when `nil`), built as `Record`.
  private func records<Record: SegmentRecord>(_ numbers: Set<Int>?, as: Record.Type) throws
    -> [(number: Int, record: Record)]
  {
    if info.chunks == 0 {
      return try Self.decoding(info.mainFile, in: store) {
        () throws(BinaryReader.Malformed) -> [(number: Int, record: Record)] in
        var reader = BinaryReader(main, magic: "")!
        reader.seek(to: inlineRecords)
        var result: [(Int, Record)] = []
        try Self.read(
          &reader, count: info.count, first: 0, numbers: numbers, categorized: inlineCategorized,
          into: &result)
        guard reader.isAtEnd else { throw BinaryReader.Malformed(detail: "bytes after the end") }
        return result
      }
    }
    let size = SegmentBuilder.chunkSize
    let chunks = numbers.map { Set($0.map { $0 / size }).sorted() } ?? Array(0..<info.chunks)
    var result: [(Int, Record)] = []
    for chunk in chunks where chunk < info.chunks {
      let name = info.chunkName(chunk)
      let bytes =
        try files?.bytes(name, of: info) { try Self.load(name, from: store) }
        ?? Self.load(name, from: store)
      try Self.decoding(name, in: store) { () throws(BinaryReader.Malformed) in
        var (reader, categorized) = try Self.chunkReader(bytes)
        let count = try reader.integer()
        guard count == min(size, info.count - chunk * size) else {
          throw BinaryReader.Malformed(detail: "wrong record count")
        }
        try Self.read(
          &reader, count: count, first: chunk * size, numbers: numbers, categorized: categorized,
          into: &result)
        guard reader.isAtEnd else { throw BinaryReader.Malformed(detail: "bytes after the end") }
      }
    }
    return result
  }

  /// Reads `count` records numbered from `first`, keeping those of `numbers` (all when `nil`)
  /// and skipping the others without building them.
  private static func read<Record: SegmentRecord>(
    _ reader: inout BinaryReader, count: Int, first: Int, numbers: Set<Int>?, categorized: Bool,
    into result: inout [(Int, Record)]
  ) throws(BinaryReader.Malformed) {
    for number in first..<(first + count) {
      if numbers?.contains(number) ?? true {
        result.append((number, try Record.read(from: &reader, categorized: categorized)))
      } else {
        try StoredArticle.skip(in: &reader, categorized: categorized)
      }
    }
  }

  /// The records whose id's key (``ReadMarks/key(_:)``) is one of `keys`, with their ids: a
  /// few ids looked for among many without making every id a string.
  func records(withIDKeys keys: Set<UInt64>) throws -> [(number: Int, id: String)] {
    if info.chunks == 0 {
      return try ids().enumerated().filter { keys.contains(ReadMarks.key($0.element)) }.map {
        ($0.offset, $0.element)
      }
    }
    var found: [(number: Int, id: String)] = []
    try readingIDsFile { (reader: inout BinaryReader) throws(BinaryReader.Malformed) in
      for number in 0..<info.count {
        let id = reader.bytes(try reader.dataRange())
        if keys.contains(ReadMarks.key(utf8: id)) {
          found.append((number, String(decoding: id, as: UTF8.self)))
        }
      }
    }
    return found
  }

  /// The ids of its records, in order.
  func ids() throws -> [String] {
    if info.chunks == 0 { return try records().map(\.record.article.id) }
    var ids: [String] = []
    ids.reserveCapacity(info.count)
    try readingIDsFile { (reader: inout BinaryReader) throws(BinaryReader.Malformed) in
      for _ in 0..<info.count { ids.append(try reader.string()) }
    }
    return ids
  }

  /// Opens the file of ids of a split segment and lets `body` read its ``SegmentInfo/count``
  /// ids from `reader`; a file of another kind, count or length is damage, named.
  private func readingIDsFile(
    _ body: (inout BinaryReader) throws(BinaryReader.Malformed) -> Void
  ) throws {
    let bytes = try Self.load(info.idsName, from: store)
    try Self.decoding(info.idsName, in: store) { () throws(BinaryReader.Malformed) in
      guard var reader = BinaryReader(bytes, magic: SegmentBuilder.idsMagic) else {
        throw BinaryReader.Malformed(detail: "not a list of ids")
      }
      let count = try reader.integer()
      guard count == info.count else { throw BinaryReader.Malformed(detail: "wrong id count") }
      try body(&reader)
      guard reader.isAtEnd else { throw BinaryReader.Malformed(detail: "bytes after the end") }
    }
  }

  /// Adds to `result` the records of the words `wanted`, reading the lists of the words from
  /// `firstWord` on, starting at `offset` of `bytes`.
  private func collect(
    _ wanted: ArraySlice<Int>, in bytes: [UInt8], from offset: Int, firstWord: Int,
    within: Set<Int>?, into result: inout Set<Int>
  ) throws(BinaryReader.Malformed) {
    var reader = BinaryReader(bytes, magic: "")!
    reader.seek(to: offset)
    var word = firstWord
    for target in wanted {
      while word < target {
        _ = try Self.readList(&reader, count: info.count, keep: false)
        word += 1
      }
      let list = try Self.readList(&reader, count: info.count)
      if let within {
        for number in list where within.contains(number) { result.insert(number) }
      } else {
        result.formUnion(list)
      }
      word += 1
    }
  }

  /// Reads one list of record numbers, each below `count`.
  private static func readList(_ reader: inout BinaryReader, count: Int, keep: Bool = true)
    throws(BinaryReader.Malformed) -> [Int]
  {
    let length = try reader.integer()
    guard length <= count else { throw BinaryReader.Malformed(detail: "bad list length") }
    var list: [Int] = []
    if keep { list.reserveCapacity(length) }
    var number = 0
    for index in 0..<length {
      let gap = try reader.integer()
      guard gap > 0 || index == 0, gap < count else {
        throw BinaryReader.Malformed(detail: "bad record number")
      }
      number += gap
      guard number < count else { throw BinaryReader.Malformed(detail: "bad record number") }
      if keep { list.append(number) }
    }
    return list
  }

  /// The main file of `info`: its own, or its record in its pack.
  static func main(of info: SegmentInfo, in store: EncryptedStore) throws -> [UInt8] {
    guard let pack = info.pack else { return try load(info.mainName, from: store) }
    let name = info.mainFile
    guard let bytes = try store.readRecord(of: name, at: pack.place) else {
      throw SegmentFileMissing(name: name)
    }
    return bytes
  }

  private static func load(_ name: String, from store: EncryptedStore) throws -> [UInt8] {
    guard let bytes = try store.readBytes(name) else { throw SegmentFileMissing(name: name) }
    return bytes
  }

  private static func damaged(
    _ name: String, in store: EncryptedStore, _ error: BinaryReader.Malformed
  ) -> StoreError {
    .unreadableContent(path: store.url(for: name).path, detail: error.detail)
  }
}
