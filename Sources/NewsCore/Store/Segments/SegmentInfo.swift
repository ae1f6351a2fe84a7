import Foundation

/// What the manifest knows of one segment: enough to plan compactions and to name its files
/// without opening it.
struct SegmentInfo: Codable, Sendable, Equatable {
  /// Its number: its files are `seg-<number>…`, numbers are never reused.
  var number: Int
  /// How many records it holds (some may be superseded by newer segments).
  var count: Int
  /// When its least recently seen record was seen, in seconds since 1970.
  var oldestSeen: Double
  /// How many `seg-<n>-c<k>` files hold its records (0: they are in the main file).
  var chunks: Int
  /// How many `seg-<n>-p<j>` files hold its postings (0: they are in the main file).
  var buckets: Int
  /// The newest publication date among its records, in seconds since 1970
  /// (``undated`` when none has one; `nil` in manifests of earlier versions: unknown). A search
  /// with a limit reads segments by it and stops once no segment left can hold a newer match.
  var newestPublished: Double? = nil

  /// Where its records come from and how they are dated, for a query to pass it over
  /// (`source:`, `date:`, `age`); `nil` in manifests of earlier versions: always read.
  var summary: SegmentSummary? = nil

  /// Where its main file is when it shares a pack with other small segments
  /// (``SegmentPack``); `nil` when it has files of its own.
  var pack: SegmentPlace? = nil

  /// ``newestPublished`` of a segment none of whose records has a date.
  static let undated = -1e15

  /// ``newestPublished`` of `records`.
  static func newestPublished(of records: [StoredArticle]) -> Double {
    records.lazy.compactMap { $0.article.publishedAt?.timeIntervalSince1970 }.max() ?? undated
  }

  /// The main file: the index's words (and, for a small segment, everything else).
  var mainName: String { StoreLayout.segment(number) }
  /// The file its main file is read from: its pack's when it is in one.
  var mainFile: String { pack.map { StoreLayout.segmentPack($0.pack) } ?? mainName }
  /// The file of its ids, for a segment split in parts.
  var idsName: String { StoreLayout.segment(number, "-ids") }

  func chunkName(_ chunk: Int) -> String { StoreLayout.segment(number, "-c\(chunk)") }
  func bucketName(_ bucket: Int) -> String { StoreLayout.segment(number, "-p\(bucket)") }

  /// Every file of the segment's own (none when it is in a pack: the pack is shared).
  var fileNames: [String] {
    guard pack == nil else { return [] }
    var names = [mainName]
    if chunks > 0 {
      names.append(idsName)
      names += (0..<chunks).map(chunkName)
      names += (0..<buckets).map(bucketName)
    }
    return names
  }

  /// The number in a segment file's name, `nil` for other files.
  static func number(inFileName name: String) -> Int? {
    guard name.hasPrefix(StoreLayout.segmentPrefix) else { return nil }
    return Int(name.dropFirst(StoreLayout.segmentPrefix.count).prefix { $0.isNumber })
  }
}

/// The generation of the last manifest committed (store file `segments-head`), written right
/// after it: a manifest older than its head was put back from a copy (a backup, a sync tool),
/// and its segments are read through a manifest rebuilt from the segment files instead, which
/// the next commit writes (a head older than its manifest is only a crash between the two).
struct SegmentHead: Codable, Sendable, Equatable {
  var generation: Int

  static let fileName = StoreLayout.segmentHead
}

/// The commit point of the article segments: which segments, of which provider, are live.
///
/// Written last, atomically, under the lock: segment files it does not list are leftovers of an
/// interrupted save or compaction and are removed by the next writer.
struct SegmentManifest: Codable, Sendable, Equatable {
  /// The format of the segments.
  var version = Self.currentVersion
  /// The next segment number.
  var next = 0
  /// Each provider's segments, oldest first (a record in a newer one wins).
  var providers: [String: [SegmentInfo]] = [:]
  /// Segments this commit replaced (a compaction), and packs it emptied: their files are
  /// removed after it, and by the next writer if a crash came first. Absent in manifests of
  /// earlier versions.
  var retired: [Int]? = nil
  /// How many commits the store has made, this one included (``SegmentHead``): absent in
  /// manifests of earlier versions (0).
  var generation: Int? = nil

  /// The segment format this version writes and reads, raised with each change of it that an
  /// earlier version would take for damage (and whose `doctor --repair` would drop): 1 up to
  /// `NSG3` segments, 2 since their index holds authors and categories (`NSG4`, `NSG5`). Every
  /// commit writes it, so an earlier version refuses the store
  /// (``StoreError/unsupportedVersion(path:version:)``) instead of reading it as damaged.
  static let currentVersion = 2

  /// The name of the manifest file.
  static let fileName = StoreLayout.segmentManifest

  /// Every file the manifest names: the segments' own and their packs.
  var liveFileNames: Set<String> {
    var names = Set(providers.values.joined().flatMap(\.fileNames))
    for pack in packNumbers { names.insert(StoreLayout.segmentPack(pack)) }
    return names
  }

  /// The packs its segments are in.
  var packNumbers: Set<Int> {
    Set(providers.values.joined().lazy.compactMap(\.pack?.pack))
  }

  /// Whether the segment file or pack `name` is provably no part of this commit or any later
  /// one: a save or compaction interrupted before its commit (numbered from `next` on), a
  /// segment or pack this commit retired, or the file of a segment since moved into a pack. An
  /// unlisted file of another number is kept: it may be what a damaged or lost manifest listed.
  func isLeftover(_ name: String) -> Bool { leftovers()(name) }

  /// ``isLeftover(_:)``, for many names: what it needs of the manifest is gathered once.
  func leftovers() -> (String) -> Bool {
    let retired = Set(retired ?? [])
    let packed = Set(providers.values.joined().lazy.filter { $0.pack != nil }.map(\.number))
    let live = liveFileNames
    return { [next] name in
      if let number = SegmentInfo.number(inFileName: name) {
        guard number >= next || retired.contains(number) || packed.contains(number) else {
          return false
        }
      } else if let number = SegmentPack.number(inFileName: name) {
        guard number >= next || retired.contains(number) else { return false }
      } else {
        return false
      }
      return !live.contains(name)
    }
  }
}
