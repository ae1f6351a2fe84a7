import Foundation

/// Turns records into a segment's files: the records, their ids, and the search index (each
/// index word with the records holding it).
///
/// A segment of at most ``chunkSize`` records is one file. A larger one (what compaction makes)
/// is a main file with the index's words, and parts: its ids, its records in chunks of
/// ``chunkSize``, and the words' records in buckets of about ``bucketPostings`` references, so
/// that a search decrypts the words, then only the buckets and chunks it needs. The main file of
/// a split segment ends with each chunk's newest publication date (``datedMainMagic``), so that
/// a search with a limit reads the chunks that may hold the newest matches and stops.
enum SegmentBuilder {
  /// Records per chunk file.
  static let chunkSize = 256
  /// References per bucket file, about.
  static let bucketPostings = 32_768

  /// The main file of a segment of one file, its records with their categories, its index
  /// holding the authors' and categories' words too (``IndexRun/Field``).
  static let mainMagic = "NSG4"
  /// The main file of a split segment, each chunk's newest publication date at its end, its
  /// index holding the authors' and categories' words too.
  static let datedMainMagic = "NSG5"

  /// What a main file's magic says of its layout.
  struct MainLayout: Equatable {
    /// A split segment whose main file ends with each chunk's newest publication date.
    var dated = false
    /// A segment of one file whose records carry their categories.
    var categorized = false
    /// An index holding the authors' and categories' words (``IndexRun/Field``).
    var fieldWords = false
  }

  /// Every main file layout as shipped, by magic: `NSG1` a segment of one file without
  /// categories or a split one without dates, `NSG2` split and dated, `NSG3` of one file with
  /// categories; `NSG4` and `NSG5` as `NSG3` and `NSG2`, with the fields' words.
  static let mainLayouts: [(magic: String, layout: MainLayout)] = [
    (mainMagic, MainLayout(categorized: true, fieldWords: true)),
    (datedMainMagic, MainLayout(dated: true, fieldWords: true)),
    ("NSG3", MainLayout(categorized: true)),
    ("NSG2", MainLayout(dated: true)),
    ("NSG1", MainLayout()),
  ]

  /// A reader of a main file past its magic, and the layout the magic names; `nil` when it is
  /// not one.
  static func mainReader(_ bytes: [UInt8]) -> (reader: BinaryReader, layout: MainLayout)? {
    for (magic, layout) in mainLayouts {
      if let reader = BinaryReader(bytes, magic: magic) { return (reader, layout) }
    }
    return nil
  }
  static let idsMagic = "NSI1"
  /// A chunk of records with their categories (``StoredArticle/layout``).
  static let chunkMagic = "NSC2"
  /// A chunk written before categories were kept (``StoredArticle/firstLayout``).
  static let firstChunkMagic = "NSC1"
  static let bucketMagic = "NSP1"

  /// The segment numbered `number` holding `records`, and its files (name, plaintext).
  static func build(number: Int, records: [StoredArticle]) -> (
    info: SegmentInfo, files: [(name: String, bytes: [UInt8])]
  ) {
    let (words, postings) = index(records)
    let split = records.count > chunkSize
    var info = SegmentInfo(
      number: number, count: records.count,
      oldestSeen: records.lazy.map(\.seenAt.timeIntervalSince1970).min() ?? 0, chunks: 0,
      buckets: 0, newestPublished: SegmentInfo.newestPublished(of: records),
      summary: SegmentSummary(of: records))
    var bucketStarts: [Int] = []
    if split {
      info.chunks = (records.count + chunkSize - 1) / chunkSize
      var references = bucketPostings
      for (token, list) in postings.enumerated() {
        if references >= bucketPostings {
          bucketStarts.append(token)
          references = 0
        }
        references += list.count
      }
      info.buckets = bucketStarts.count
    }

    var main = BinaryWriter(magic: split ? datedMainMagic : mainMagic)
    main.integer(records.count)
    main.integer(info.chunks)
    main.integer(info.buckets)
    main.integer(words.count)
    for word in words { main.data(word) }
    var files: [(name: String, bytes: [UInt8])] = []
    if split {
      for start in bucketStarts { main.integer(start) }
      for chunk in 0..<info.chunks {
        let range = (chunk * chunkSize)..<min((chunk + 1) * chunkSize, records.count)
        main.double(SegmentInfo.newestPublished(of: Array(records[range])))
      }
      var ids = BinaryWriter(magic: idsMagic)
      ids.integer(records.count)
      for record in records { ids.string(record.article.id) }
      files.append((info.idsName, ids.bytes))
      for chunk in 0..<info.chunks {
        let range = (chunk * chunkSize)..<min((chunk + 1) * chunkSize, records.count)
        var writer = BinaryWriter(magic: chunkMagic)
        writer.integer(range.count)
        for record in records[range] { record.write(to: &writer) }
        files.append((info.chunkName(chunk), writer.bytes))
      }
      for (bucket, start) in bucketStarts.enumerated() {
        let end = bucket + 1 < bucketStarts.count ? bucketStarts[bucket + 1] : words.count
        var writer = BinaryWriter(magic: bucketMagic)
        for list in postings[start..<end] { write(list, to: &writer) }
        files.append((info.bucketName(bucket), writer.bytes))
      }
    } else {
      for list in postings { write(list, to: &main) }
      for record in records { record.write(to: &main) }
    }
    files.insert((info.mainName, main.bytes), at: 0)
    return (info, files)
  }

  /// The index words of `records`, sorted, and for each the ascending numbers of the records
  /// holding it: the words of their text, then those of their authors and categories behind
  /// their field's marker (which sorts them first).
  static func index(_ records: [StoredArticle]) -> (words: [[UInt8]], postings: [[Int]]) {
    var cache: [Unicode.Scalar: [UInt8]] = [:]
    var byWord: [[UInt8]: [Int]] = [:]
    var folded: [UInt8] = []
    var word: [UInt8] = []
    for (number, record) in records.enumerated() {
      // Each word once a record: a word met again in the same record finds it last in its list.
      func note(_ list: inout [Int]) { if list.last != number { list.append(number) } }
      folded.removeAll(keepingCapacity: true)
      for field in [record.article.title, record.article.description, record.article.content] {
        guard let field else { continue }
        ArticleSearch.fold(field, into: &folded, cache: &cache)
        folded.append(0x0A)
      }
      SearchTokens.forEachWord(in: folded, marker: nil, word: &word) {
        note(&byWord[$0, default: []])
      }
      func collect(_ part: String, _ field: IndexRun.Field) {
        folded.removeAll(keepingCapacity: true)
        ArticleSearch.fold(part, into: &folded, cache: &cache)
        SearchTokens.forEachWord(in: folded, marker: field.marker, word: &word) {
          note(&byWord[$0, default: []])
        }
      }
      if let author = record.article.author { collect(author, .author) }
      for category in record.article.categories { collect(category, .category) }
    }
    let sorted = byWord.keys.sorted { $0.lexicographicallyPrecedes($1) }
    return (sorted, sorted.map { byWord[$0]! })
  }

  /// A list of ascending record numbers: its length, then the gaps.
  private static func write(_ list: [Int], to writer: inout BinaryWriter) {
    writer.integer(list.count)
    var previous = 0
    for number in list {
      writer.integer(number - previous)
      previous = number
    }
  }
}
