import FeedParsing
import Foundation
import TestSupport
import Testing

@testable import NewsCore

/// The feed cache keeps several sources' entries a file (#58.1): a refresh writes a few files,
/// not one a source, each entry still read and decrypted alone, damage costing what it touches.
@Suite("feed cache: entries in bundles, an index, the earlier layout folded in")
struct FeedCacheTests {
  let directory = TemporaryDirectory()

  var store: EncryptedStore {
    EncryptedStore.testing(in: directory.url, key: 7)
  }

  /// An entry of `source` with `items` items, its bytes as a refresh writes them.
  static func entry(_ source: String, items: Int = 2, at time: Double = 1_000) throws -> [UInt8] {
    var entry = FeedCacheEntry(
      url: "http://127.0.0.1/\(source).xml",
      items: (0..<items).map { FeedItem(id: "\(source)-\($0)", feed: source, title: "T \($0)") },
      fetchedAt: Date(timeIntervalSince1970: time), etag: "\"\(source)\"")
    entry.hint = FreshnessHint(seconds: 600, kind: .feedTTL)
    entry.postsEvery = 3_600
    return try entry.encoded()
  }

  /// The bundles in the directory, by name.
  var bundles: [String] {
    store.names().filter { StoreLayout.feedBundleNumber($0) != nil }.sorted()
  }

  @Test("a commit of many sources is one bundle and the index; each entry reads back alone")
  func oneCommit() throws {
    let cache = FeedCache(store: store)
    let entries = try (0..<100).map { ("s\($0)", try Self.entry("s\($0)")) }
    try cache.commit(entries)
    #expect(Set(store.names()) == ["feeds", "feeds-0", "keycheck"])
    // Another process's view: read from disk.
    let reader = FeedCache(store: store)
    for (source, bytes) in entries {
      #expect(try reader.entry(of: source) == bytes)
      let summary = try FeedCacheEntry.decodeSummary(try #require(try reader.summary(of: source)))
      #expect(summary.etag == "\"\(source)\"" && summary.postsEvery == 3_600)
      #expect(summary.hint == FreshnessHint(seconds: 600, kind: .feedTTL))
    }
    #expect(try reader.entry(of: "never") == nil)
    #expect(try store.verify("feeds-0") == ())
  }

  @Test(
    "a directory counts each entry's items (zero included); one written before counts knows none")
  func directoryCounts() throws {
    let place = SealedBundle.Place(index: 1, count: 3, offset: 40, length: 90)
    let listed: [(source: String, place: SealedBundle.Place, summary: [UInt8], itemCount: Int?)] = [
      ("a", place, [1, 2, 3], 20), ("b", place, [], 0), ("c", place, [9], nil),
    ]
    let counted = try FeedCacheIndex.entries(
      inDirectory: FeedCacheIndex.directory(listed), of: 4)
    #expect(counted.map(\.entry.itemCount) == [20, 0, nil])
    #expect(counted.map(\.entry.summary) == [[1, 2, 3], [], [9]])
    #expect(counted.allSatisfy { $0.entry.bundle == 4 && $0.entry.place == place })
    let first = try FeedCacheIndex.entries(
      inDirectory: FeedCacheIndex.directory(listed, magic: FeedCacheIndex.firstDirectoryMagic),
      of: 4)
    #expect(first.map(\.source) == ["a", "b", "c"])
    #expect(first.map(\.entry.itemCount) == [nil, nil, nil])
    #expect(first.map(\.entry.summary) == [[1, 2, 3], [], [9]])
    // Committed from an entry and its items, the count is theirs, in another process too.
    let cache = FeedCache(store: store)
    var entry = try FeedCacheEntry.decode(try Self.entry("s", items: 7))
    let pack = FeedItemPack(entry.items)
    entry.items = []
    try cache.commit([try FeedCache.Pending(source: "s", entry: entry, pack: pack)])
    #expect(try FeedCache(store: store).counted("s")?.itemCount == 7)
  }

  @Test("one source a commit: a logarithmic number of bundles, at most about twice the entries")
  func bundlesStayFew() throws {
    let cache = FeedCache(store: store)
    for number in 0..<200 {
      try cache.commit([("s\(number)", try Self.entry("s\(number)", items: 20))])
    }
    #expect(bundles.count <= 9, "\(bundles)")
    // The same ten sources written again and again: the bundles they leave behind go.
    for round in 0..<50 {
      for number in 0..<10 {
        try cache.commit([
          ("s\(number)", try Self.entry("s\(number)", items: 20, at: Double(round)))
        ])
      }
    }
    #expect(bundles.count <= 10, "\(bundles)")
    let live = try (0..<200).reduce(0) { sum, number in
      sum + (try #require(try FeedCache(store: store).entry(of: "s\(number)"))).count
    }
    let onDisk = bundles.reduce(0) { $0 + (store.directory.fileSize(of: $1 + ".enc")) }
    #expect(onDisk <= 2 * live + 100 * bundles.count, "\(onDisk) bytes for \(live)")
    #expect(
      try FeedCache(store: store).entry(of: "s3") == (try Self.entry("s3", items: 20, at: 49)))
    #expect(try FeedCache(store: store).entry(of: "s150") == (try Self.entry("s150", items: 20)))
  }

  @Test("a reader whose bundle another process removed reads the index again")
  func bundleGoneWhileReading() throws {
    let reader = FeedCache(store: store)
    try FeedCache(store: store).commit([("a", try Self.entry("a")), ("b", try Self.entry("b"))])
    #expect(try reader.entry(of: "a") == (try Self.entry("a")))
    // Another process writes both again (the first bundle is removed).
    let writer = FeedCache(store: store)
    try writer.commit([("a", try Self.entry("a", at: 2)), ("b", try Self.entry("b", at: 2))])
    #expect(!bundles.contains("feeds-0"))
    #expect(try reader.entry(of: "b") == (try Self.entry("b", at: 2)))
  }

  @Test("a bundle left by a crash before its index is never read, and goes with the next commit")
  func crashBeforeTheIndex() throws {
    let cache = FeedCache(store: store)
    try cache.commit([("a", try Self.entry("a"))])
    // What a kill -9 after the bundle, before the index, leaves.
    _ = try store.transaction { files in
      let record = FeedCacheIndex.record("a", try Self.entry("a", at: 9))
      return try files.createBundle(count: 1, name: "feeds-5") { _, _ in record }
    }
    #expect(try FeedCache(store: store).entry(of: "a") == (try Self.entry("a")))
    // The next process's first commit removes it (a commit of this process does not look).
    try cache.commit([("b", try Self.entry("b"))])
    #expect(bundles.contains("feeds-5"))
    try FeedCache(store: store).commit([("c", try Self.entry("c"))])
    #expect(!bundles.contains("feeds-5"))
    #expect(try FeedCache(store: store).entry(of: "a") == (try Self.entry("a")))
  }

  @Test("an index missing or damaged is rebuilt from the bundles, the newest winning; said once")
  func indexRebuilt() throws {
    let cache = FeedCache(store: store)
    try cache.commit([("a", try Self.entry("a")), ("b", try Self.entry("b"))])
    try cache.commit([("a", try Self.entry("a", at: 5)), ("c", try Self.entry("c"))])
    try flipMiddleByte(of: store.url(for: "feeds"))
    let said = Recorder<StoreDamage>()
    var damaged = store
    damaged.onSideDamage = { said.record($0) }
    let reader = FeedCache(store: damaged)
    #expect(try reader.entry(of: "a") == (try Self.entry("a", at: 5)))
    #expect(try reader.entry(of: "b") == (try Self.entry("b")))
    #expect(said.all.count == 1 && said.all.first?.path.hasSuffix("feeds.enc") == true)
    // The next commit replaces it (it held nothing the bundles do not).
    try reader.commit([("d", try Self.entry("d"))])
    #expect(try store.verify("feeds") == ())
    try FileManager.default.removeItem(at: store.url(for: "feeds"))
    for source in ["a", "b", "c", "d"] {
      #expect(try FeedCache(store: store).entry(of: source) != nil, "\(source)")
    }
  }

  @Test("entries of the earlier layout read, and folded in by the first commit; damaged ones stay")
  func earlierLayoutFolded() throws {
    try store.write(bytes: try Self.entry("x"), name: "feed-x")
    try store.write(bytes: try Self.entry("y"), name: "feed-y")
    try store.write(bytes: try Self.entry("z"), name: "feed-z")
    try flipMiddleByte(of: store.url(for: "feed-y"))
    let cache = FeedCache(store: store)
    #expect(try cache.entry(of: "x") == (try Self.entry("x")))
    #expect(throws: StoreError.self) { try cache.entry(of: "y") }
    try cache.commit([("z", try Self.entry("z", at: 7))])
    #expect(!store.names().contains("feed-x") && !store.names().contains("feed-z"))
    #expect(store.names().contains("feed-y"))
    let reader = FeedCache(store: store)
    #expect(try reader.entry(of: "x") == (try Self.entry("x")))
    #expect(try reader.entry(of: "z") == (try Self.entry("z", at: 7)))
    #expect(throws: StoreError.self) { try reader.entry(of: "y") }
  }

  @Test("a damaged record fails its source alone, and doctor's check finds it")
  func damagedRecord() throws {
    let cache = FeedCache(store: store)
    try cache.commit([("a", try Self.entry("a")), ("b", try Self.entry("b"))])
    // The newest of a commit is first: `b` is record 0.
    try damageRecords(of: store.url(for: "feeds-0")) { $0 == 0 }
    let reader = FeedCache(store: store)
    #expect(throws: StoreError.self) { try reader.entry(of: "b") }
    #expect(try reader.entry(of: "a") == (try Self.entry("a")))
    #expect(throws: StoreError.self) { try store.verify("feeds-0") }
    // A commit leaves it where it is: the damaged entry is never carried, nor its bundle removed.
    try cache.commit([("a", try Self.entry("a", at: 3))])
    #expect(bundles.contains("feeds-0"))
    #expect(throws: StoreError.self) { try FeedCache(store: store).entry(of: "b") }
  }

  @Test("a damaged directory: said once, its sources fetched again, its bundle kept until repair")
  func damagedDirectory() throws {
    let cache = FeedCache(store: store)
    // Three, then one: the newest bundle holds more than twice the second commit (not merged).
    try cache.commit(try ["a", "b", "d"].map { ($0, try Self.entry($0)) })
    try cache.commit([("c", try Self.entry("c"))])
    #expect(bundles.count == 2)
    let first = try #require(bundles.first)
    let count = try recordCount(of: store.url(for: first))
    try damageRecords(of: store.url(for: first)) { $0 == count - 1 }
    let said = Recorder<StoreDamage>()
    var damaged = store
    damaged.onSideDamage = { said.record($0) }
    let reader = FeedCache(store: damaged)
    #expect(try reader.entry(of: "c") == (try Self.entry("c")))
    #expect(try reader.entry(of: "a") == nil && reader.entry(of: "b") == nil)
    #expect(said.all.map(\.path) == [store.url(for: first).path])
    #expect(said.all.first?.advice == .repairStore(does: "removes it"))
    // Written again in a new bundle; the damaged one stays as it is.
    try reader.commit([("a", try Self.entry("a", at: 4))])
    #expect(bundles.contains(first))
    #expect(try FeedCache(store: store).entry(of: "a") == (try Self.entry("a", at: 4)))
  }

  @Test(
    "a record moved, or a file cut short, does not open",
    arguments: ["moved", "cut"])
  func recordsAreBound(change: String) throws {
    let key = [UInt8](repeating: 9, count: 32)
    var counter: UInt8 = 0
    let records = [Array("one".utf8), Array("two".utf8)]
    let (bytes, places) = SealedBundle.seal(
      count: records.count, name: "feeds-1", key: key,
      nonce: {
        counter += 1
        return [UInt8](repeating: counter, count: 12)
      }, record: { index, _ in records[index] })
    #expect(throws: Never.self) { try SealedBundle.verify(bytes, name: "feeds-1", key: key) }
    var changed = bytes
    switch change {
    case "moved":
      // The second record's bytes read at the first's place, or under another file's name.
      var second = Array(bytes[places[1].offset..<(places[1].offset + places[1].length)])
      #expect(throws: EncryptedFileFormat.Failure.self) {
        try SealedBundle.open(&second, at: places[0], name: "feeds-1", key: key)
      }
      var again = Array(bytes[places[1].offset..<(places[1].offset + places[1].length)])
      #expect(throws: EncryptedFileFormat.Failure.self) {
        try SealedBundle.open(&again, at: places[1], name: "feeds-2", key: key)
      }
      changed.removeSubrange(places[1].offset - 4..<bytes.count)
      changed[5] = 1
    default:
      changed.removeLast()
    }
    #expect(throws: EncryptedFileFormat.Failure.self) {
      try SealedBundle.verify(changed, name: "feeds-1", key: key)
    }
  }
}

extension URL {
  /// The size of the file `name` in this directory (0 when it is not there).
  fileprivate func fileSize(of name: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: appendingPathComponent(name).path))?[
      .size] as? Int) ?? 0
  }
}
