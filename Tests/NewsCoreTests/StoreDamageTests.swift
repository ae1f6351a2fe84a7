import Foundation
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

/// One damaged file costs only itself: a read-mark shard, the read log, a rolled-back segment
/// manifest, a manifest with a damaged chunk — each found by `doctor`, and repaired from what
/// the other files hold.
@Suite("Store damage: one file costs only itself")
struct StoreDamageTests {
  let directory = TemporaryDirectory()
  let clock = TestDate()

  var configuration: Configuration {
    get throws {
      try Configuration(
        environment: [
          "HOME": directory.url.path, "NEWS_HOME": directory.path("home"),
          "NEWS_STORE_KEY": Data(repeating: 3, count: 32).base64EncodedString(),
        ])
    }
  }

  func store() throws -> ArticleStore {
    let configuration = try configuration
    let key = try #require(try StoreKey.existing(configuration: configuration))
    let clock = self.clock
    var store = ArticleStore(
      store: EncryptedStore(
        directory: configuration.paths.dataDirectory, key: key, randomBytes: SecureRandom.bytes),
      now: { clock.now })
    store.readMarksMergeAfter = 0
    return store
  }

  /// Flips a byte in the middle of store file `name`.
  func damage(_ name: String, in store: ArticleStore) throws {
    try flipMiddleByte(of: store.store.url(for: name))
  }

  func repair(_ store: ArticleStore) throws -> (actions: [String], after: StoreReport) {
    let report = try StoreReport.examine(try configuration)
    let actions = try StoreRepair.run(
      articles: store, cache: nil, report: report, owners: NewsServices.storeFileOwners)
    return (actions, try StoreReport.examine(try configuration))
  }

  @Test("a damaged read-mark shard costs only its own marks, is named, written around, repaired")
  func damagedShard() throws {
    let store = try store()
    let ids = (0..<2_000).map { "site.example-\($0)" }
    #expect(try store.markRead(ids) == 2_000)
    let shard = ReadMarks.shard(of: ReadMarks.key(ids[0]))
    let name = StoreLayout.readMarksShard(shard)
    let inShard = ids.filter { ReadMarks.shard(of: ReadMarks.key($0)) == shard }
    try damage(name, in: store)
    let damagedBytes = try Data(contentsOf: store.store.url(for: name))

    let marks = try store.readMarks()
    #expect(marks.count == 2_000 - inShard.count, "only that file's marks are lost")
    #expect(marks.unreadableFiles == [store.store.url(for: name).path])
    #expect(try store.readMarks(of: [ids[0]]).unreadableFiles.count == 1)

    // Writes go on: other shards are written, the damaged one is not written over, and a
    // change of its marks waits in the log.
    #expect(try store.markRead(["another"]) == 1)
    try store.markUnread([inShard[0]])
    try store.markRead([inShard[1]])
    #expect(try Data(contentsOf: store.store.url(for: name)) == damagedBytes)
    #expect(try store.readMarks().contains(inShard[1]))
    // Segments a query found read through: forgotten by the repair, which loses marks.
    let readThrough = FullyReadSegments(epoch: 1, oldestMark: [0: 5])
    try store.store.write(bytes: readThrough.encoded, name: FullyReadSegments.fileName)

    let before = try StoreReport.examine(try configuration)
    #expect(before.files.contains { $0.name == name && $0.error != nil }, "doctor names it")
    let (actions, after) = try repair(store)
    #expect(actions.count == 1 && actions[0].contains(name), "\(actions)")
    #expect(after.isHealthy)
    let repaired = try store.readMarks()
    #expect(repaired.unreadableFiles.isEmpty)
    #expect(repaired.contains(inShard[1]) && repaired.contains("another"))
    #expect(repaired.count == 2_000 - inShard.count + 2)
    let forgotten = try #require(store.fullyReadSegments())
    #expect(forgotten.oldestMark.isEmpty && forgotten.epoch != readThrough.epoch)
    #expect(try repair(store).actions.isEmpty)
  }

  @Test(
    "a damaged read log costs only the marks in it; marks go around it, never over it, until repair"
  )
  func damagedLog() throws {
    var store = try store()
    #expect(try store.markRead(["a", "b"]) == 2)
    store.readMarksMergeAfter = 100
    try store.markRead(["c"], counting: false)
    try damage(StoreLayout.readMarksLog, in: store)
    let logURL = store.store.url(for: StoreLayout.readMarksLog)
    let damagedBytes = try Data(contentsOf: logURL)
    let marks = try store.readMarks()
    #expect(marks.marked(["a", "b", "c"]) == ["a", "b"])
    #expect(marks.unreadableFiles.count == 1)
    // Both ways of marking (appending, and counting) leave the evidence as it was.
    try store.markRead(["d"], counting: false)
    #expect(try store.markRead(["e"]) == 1)
    try store.markUnread(["a"], counting: false)
    #expect(try Data(contentsOf: logURL) == damagedBytes)
    #expect(try store.readMarks().marked(["a", "b", "c", "d", "e"]) == ["b", "d", "e"])
    #expect(!(try StoreReport.examine(try configuration).isHealthy), "doctor still names it")
    let (actions, after) = try repair(store)
    #expect(actions.count == 1 && actions[0].contains(StoreLayout.readMarksLog), "\(actions)")
    #expect(after.isHealthy)
    #expect(try store.readMarks().marked(["a", "b", "c", "d", "e"]) == ["b", "d", "e"])
  }

  @Test("a damaged hook ledger is remade by repair, every stored article counted as hooked")
  func damagedHookLedger() throws {
    let store = try store()
    try store.keep(articles(0..<30), provider: "feed")
    #expect(try store.claimHookRuns(["a-0"], at: clock.now) == ["a-0"])
    try damage(StoreLayout.hookLedger, in: store)
    #expect(throws: StoreError.self) { try store.claimHookRuns(["a-1"], at: clock.now) }
    #expect(!(try StoreReport.examine(try configuration).isHealthy))

    let (actions, after) = try repair(store)
    #expect(actions.count == 1, "\(actions)")
    #expect(actions.first?.contains("remade") == true && actions.first?.contains("30") == true)
    #expect(after.isHealthy)
    // What the store held is not hooked again; a new item is.
    #expect(try store.claimHookRuns(["a-5", "a-29", "new-1"], at: clock.now) == ["new-1"])
    #expect(try repair(store).actions.isEmpty)
  }

  func articles(_ range: Range<Int>, prefix: String = "a") -> [Article] {
    range.map { Article(id: "\(prefix)-\($0)", provider: "feed", title: "Story \($0) words") }
  }

  @Test("an older segments.enc put back is detected, read around, and repaired, losing nothing")
  func rolledBackManifest() throws {
    let store = try store()
    try store.keep(articles(0..<10), provider: "feed")
    let manifest = store.store.url(for: StoreLayout.segmentManifest)
    let backup = try Data(contentsOf: manifest)
    for batch in 1..<4 {
      try store.keep(articles((batch * 10)..<(batch * 10 + 10)), provider: "feed")
    }
    #expect(try store.allArticles().count == 40)
    #expect(try StoreReport.examine(try configuration).isHealthy)

    try backup.write(to: manifest)
    let report = try StoreReport.examine(try configuration)
    let entry = report.files.first { $0.name == StoreLayout.segmentManifest }
    #expect(entry?.error?.contains("an older copy") == true, "\(String(describing: entry?.error))")
    #expect(!report.isHealthy)
    // Read through the segment files, nothing is missing.
    #expect(try store.allArticles().count == 40)
    #expect(try store.article(id: "a-35") != nil)

    let (actions, after) = try repair(store)
    #expect(actions.contains { $0.contains("older copy") }, "\(actions)")
    #expect(after.isHealthy, "\(after.files.compactMap(\.error))")
    #expect(try store.allArticles().count == 40)
    #expect(try repair(store).actions.isEmpty)

    // A write after a rollback keeps everything too (and heals it).
    try backup.write(to: manifest)
    try store.keep(articles(40..<41), provider: "feed")
    #expect(try store.allArticles().count == 41)
    #expect(try StoreReport.examine(try configuration).isHealthy)
  }

  @Test("a damaged manifest and a damaged chunk cost that chunk only; a second repair has nothing")
  func manifestAndChunkDamaged() throws {
    let store = try store()
    try store.keep(articles(0..<600), provider: "feed")
    let chunk = try #require(store.store.names().first { $0.hasSuffix("-c1") })
    try damage(StoreLayout.segmentManifest, in: store)
    try damage(chunk, in: store)
    let (actions, after) = try repair(store)
    #expect(!actions.isEmpty)
    #expect(after.isHealthy, "\(after.files.compactMap(\.error))")
    #expect(try store.allArticles().count == 600 - SegmentBuilder.chunkSize)
    #expect(try repair(store).actions.isEmpty)
  }

  @Test("a split segment's damaged main file: read around, then rebuilt from its chunks")
  func damagedMainFile() throws {
    let store = try store()
    try store.keep(articles(0..<600), provider: "feed")
    try store.keep(articles(600..<610), provider: "feed")
    let main = try #require(
      store.store.names().first { name in
        store.store.names().contains(name + "-c0")
      })
    try damage(main, in: store)
    // Before a repair, reading goes on around it, said once.
    let said = Recorder<StoreDamage>()
    var encrypted = store.store
    encrypted.onSideDamage = { said.record($0) }
    let clock = self.clock
    let reading = ArticleStore(store: encrypted, now: { clock.now })
    #expect(try reading.allArticles().count == 10)
    #expect(try reading.article(id: "a-605") != nil)
    #expect(said.all.count == 1 && said.all.first?.leftOut.contains("left out") == true)
    #expect(
      said.all.first?.advice == .repairStore(does: "rebuilds the segment from the parts that read"))
    // Repair keeps all 600: the chunks read, only the main file was lost.
    let (actions, after) = try repair(store)
    #expect(actions.contains { $0.contains("600 of 600 articles kept") }, "\(actions)")
    #expect(after.isHealthy, "\(after.files.compactMap(\.error))")
    #expect(try store.allArticles().count == 610)
    #expect(try repair(store).actions.isEmpty)
  }

  @Test(
    "a missing part of a split segment, or its main file, is read around as damage; repair rebuilds",
    arguments: ["-c1", "-ids", ""])
  func missingPart(suffix: String) throws {
    let store = try store()
    try store.keep(articles(0..<600), provider: "feed")
    try store.keep(articles(600..<610), provider: "feed")
    let main = try #require(
      store.store.names().first { name in store.store.names().contains(name + "-c0") })
    try FileManager.default.removeItem(at: store.store.url(for: main + suffix))
    let said = Recorder<StoreDamage>()
    var encrypted = store.store
    encrypted.onSideDamage = { said.record($0) }
    let clock = self.clock
    let reading = ArticleStore(store: encrypted, now: { clock.now })
    // Lists, searches and lookups go on without what the missing file held, said once.
    #expect(try reading.allArticles().count >= 10)
    #expect(try reading.search(["story"]).articles.count >= 10)
    #expect(try reading.article(id: "a-605") != nil)
    // A lookup stops at the segment holding what it looks for: one absent reads them all.
    #expect(try reading.article(id: "a-none") == nil)
    #expect(said.all.count == 1, "\(said.all)")
    #expect(said.all.first?.leftOut.contains("missing") == true)
    let (actions, after) = try repair(store)
    #expect(!actions.isEmpty)
    #expect(after.isHealthy, "\(after.files.compactMap(\.error))")
    #expect(try store.allArticles().count >= 10)
    #expect(try repair(store).actions.isEmpty)
  }

  @Test("a damaged segment list is read around through the segment files")
  func damagedManifestRead() throws {
    let store = try store()
    try store.keep(articles(0..<20), provider: "feed")
    try damage(StoreLayout.segmentManifest, in: store)
    let said = Recorder<StoreDamage>()
    var encrypted = store.store
    encrypted.onSideDamage = { said.record($0) }
    let clock = self.clock
    let reading = ArticleStore(store: encrypted, now: { clock.now })
    #expect(try reading.search(["story"]).articles.count == 20)
    #expect(said.all.count == 1 && said.all.first?.path.hasSuffix("segments.enc") == true)
    // A writer does not write over it.
    #expect(throws: StoreError.self) { try store.keep(articles(20..<21), provider: "feed") }
  }

  @Test("a split segment's main file and the manifest both lost: its chunks are taken back")
  func mainAndManifestLost() throws {
    let store = try store()
    try store.keep(articles(0..<600), provider: "feed")
    let main = try #require(
      store.store.names().first { name in store.store.names().contains(name + "-c0") })
    try damage(main, in: store)
    try FileManager.default.removeItem(at: store.store.url(for: StoreLayout.segmentManifest))
    let (actions, after) = try repair(store)
    #expect(actions.contains { $0.contains("from its chunks") }, "\(actions)")
    #expect(after.isHealthy, "\(after.files.compactMap(\.error))")
    #expect(try store.allArticles().count == 600)
    #expect(try repair(store).actions.isEmpty)
  }

  @Test("a segment the manifest does not list is taken back by repair")
  func unlistedSegmentTakenBack() throws {
    let store = try store()
    try store.keep(articles(0..<5), provider: "feed")
    let old = try Data(contentsOf: store.store.url(for: StoreLayout.segmentManifest))
    try store.keep(articles(5..<6, prefix: "b"), provider: "other")
    try store.keep(articles(6..<7, prefix: "c"), provider: "other")
    // The old manifest, and no head: as a copy from before heads were written.
    try FileManager.default.removeItem(at: store.store.url(for: StoreLayout.segmentHead))
    try old.write(to: store.store.url(for: StoreLayout.segmentManifest))
    var manifest = try #require(
      try SegmentManifest.stored(in: store.store))
    manifest.next = 100
    try store.store.write(manifest, name: StoreLayout.segmentManifest)
    #expect(try store.allArticles().count == 5)
    let (actions, after) = try repair(store)
    #expect(actions.contains { $0.contains("took back segment") }, "\(actions)")
    #expect(after.isHealthy, "\(after.files.compactMap(\.error))")
    #expect(try store.allArticles().count == 7)
  }

  @Test("a batch of several sources is one commit: the manifest is written once")
  func batchIsOneCommit() throws {
    let store = try store()
    try store.keep(articles(0..<3), provider: "feed")
    let generation = { () throws -> Int in
      try #require(
        try SegmentManifest.stored(in: store.store)?.generation)
    }
    let before = try generation()
    try store.keep(
      (1...20).map { source in
        (articles(0..<5, prefix: "s\(source)"), "source-\(source)")
      })
    #expect(try generation() == before + 1)
    #expect(try store.allArticles().count == 3 + 100)
    #expect(try store.articles(provider: "source-7").count == 5)
    // Nothing to store is no commit.
    try store.keep([([], "empty")])
    #expect(try generation() == before + 1)
  }
}
