import Foundation
import TestSupport
import Testing

@testable import NewsCore

/// Small segments share packs (#58.1): a refresh of many sources writes a few files, not one a
/// source, with the store's guarantees as they were.
@Suite("Segment packs")
struct SegmentPackTests {
  let directory = TemporaryDirectory()
  let clock = TestDate()

  /// A store as one process sees it: a new one is the next process.
  func store() -> ArticleStore {
    let clock = self.clock
    return ArticleStore.testing(
      in: directory.url, retention: RetentionPolicy(maximumCount: 100_000),
      now: { clock.now })
  }

  func article(_ id: String, provider: String, title: String = "story") -> Article {
    Article(id: id, provider: provider, title: title)
  }

  /// A batch of `sources` sources of `items` articles each, their ids prefixed by `round`.
  func batch(_ round: String, sources: Range<Int>, items: Int = 5)
    -> [(articles: [Article], provider: String)]
  {
    sources.map { source in
      (
        (0..<items).map { article("\(round)-\(source)-\($0)", provider: "p\(source)") },
        "p\(source)"
      )
    }
  }

  func segmentFiles(_ store: ArticleStore) -> [String] {
    store.store.names().filter {
      SegmentInfo.number(inFileName: $0) != nil || SegmentPack.number(inFileName: $0) != nil
    }.sorted()
  }

  func packs(_ store: ArticleStore) -> [String] {
    segmentFiles(store).filter { SegmentPack.number(inFileName: $0) != nil }
  }

  func size(_ store: ArticleStore, _ name: String) throws -> Int {
    try FileManager.default.attributesOfItem(atPath: store.store.url(for: name).path)[.size]
      as? Int ?? 0
  }

  /// A reader of `store` in another process, and the damage it says it read around.
  func reader(noting store: ArticleStore) -> (ArticleStore, Recorder<StoreDamage>) {
    let said = Recorder<StoreDamage>()
    var damaged = store.store
    damaged.onSideDamage = { said.record($0) }
    return (ArticleStore(store: damaged, retention: store.retention, now: store.now), said)
  }

  @Test("a commit of a hundred sources writes one pack, each segment read on its own")
  func oneCommit() throws {
    let store = store()
    try store.keep(batch("a", sources: 0..<100))
    // Segments 0-99, then their pack.
    #expect(segmentFiles(store) == ["segs-100"])
    let manifest = try store.segments.manifest()
    #expect(manifest.providers.count == 100)
    #expect(manifest.providers.values.joined().allSatisfy { $0.pack?.pack == 100 })
    #expect(try store.articles(provider: "p42").map(\.id).sorted() == (0..<5).map { "a-42-\($0)" })
    #expect(try store.search(["story"]).articles.count == 500)
  }

  @Test("a source twice in one commit: its second segment merges with its first, none lost")
  func sourceTwice() throws {
    let store = store()
    try store.keep([
      ([article("a", provider: "p")], "p"), ([article("q", provider: "q")], "q"),
      ([article("b", provider: "p")], "p"),
    ])
    #expect(try store.articles(provider: "p").map(\.id).sorted() == ["a", "b"])
    let manifest = try store.segments.manifest()
    #expect(manifest.providers["p"]?.count == 1)
    #expect(Set(segmentFiles(store)) == manifest.liveFileNames)
    #expect(try store.search(["story"]).articles.count == 3)
  }

  @Test("a source forgotten (its account removed) leaves no record in any pack")
  func forgotten() throws {
    let store = store()
    try store.keep(batch("a", sources: 0..<4))
    #expect(try store.forget(providers: ["p1", "p2"]) == 10)
    #expect(Set(try store.segments.manifest().providers.keys) == ["p0", "p3"])
    // What the packs on disk hold, read without the manifest.
    #expect(Set(store.segments.rebuiltManifest().providers.keys) == ["p0", "p3"])
    #expect(Set(segmentFiles(store)) == (try store.segments.manifest().liveFileNames))
    #expect(try store.search(["story"]).articles.count == 10)
  }

  @Test("a commit larger than a pack writes several; the segments are all read")
  func largeCommit() throws {
    let store = store()
    // 40 sources of 20 articles of 4 KB: about 3.2 MB, more than a pack holds.
    let body = String(repeating: "word ", count: 800)
    let sources = (0..<40).map { source in
      (
        (0..<20).map {
          var item = article("big-\(source)-\($0)", provider: "p\(source)")
          item.content = body + "\(source) \($0)"
          return item
        }, "p\(source)"
      )
    }
    try store.keep(sources)
    let written = packs(store)
    #expect(written.count == 2, "\(written)")
    #expect(segmentFiles(store) == written)
    for name in written { #expect(try size(store, name) < 2 * ArticleSegments.packBytes) }
    #expect(try store.allArticles().count == 800)
  }

  @Test("commit after commit, the packs stay few and hold at most about twice what is live")
  func manyCommits() throws {
    let store = store()
    for round in 0..<150 {
      clock.advance(by: 60)
      // Three of forty sources a commit, each with one new article.
      try store.keep(batch("r\(round)", sources: (round * 3 % 40)..<(round * 3 % 40 + 3), items: 1))
    }
    let manifest = try store.segments.manifest()
    let files = segmentFiles(store)
    #expect(Set(files) == manifest.liveFileNames)
    #expect(files.allSatisfy { SegmentPack.number(inFileName: $0) != nil })
    #expect(files.count <= 10, "\(files)")
    let live = manifest.providers.values.joined().compactMap(\.pack?.length).reduce(0, +)
    let disk = try files.map { try size(store, $0) }.reduce(0, +)
    #expect(disk <= 2 * live + 4_096, "\(disk) on disk, \(live) live")
    #expect(try store.search(["story"]).articles.count == 450)
  }

  @Test("a pack of a commit killed before its manifest is read by no one, and removed")
  func killedBeforeManifest() throws {
    let first = store()
    try first.keep([article("a", provider: "p")], provider: "p")
    let next = try first.segments.manifest().next
    // What a commit of several segments killed after writing its pack leaves: the pack, not
    // the manifest.
    let built = SegmentBuilder.build(
      number: next,
      records: [StoredArticle(article: article("z", provider: "p"), seenAt: clock.now)])
    _ = try first.store.transaction { files in
      try SegmentPack.write(
        number: next + 5, segments: [built.info], main: { _ in built.files[0].bytes }, in: files)
    }
    #expect(first.store.names().contains(StoreLayout.segmentPack(next + 5)))
    #expect(try first.search(["story"]).articles.map(\.id) == ["a"])
    // The next process's first commit lists the directory and removes it.
    let second = store()
    clock.advance(by: 60)
    try second.keep([article("b", provider: "q")], provider: "q")
    #expect(!second.store.names().contains(StoreLayout.segmentPack(next + 5)))
    #expect(Set(try second.search(["story"]).articles.map(\.id)) == ["a", "b"])
    #expect(Set(segmentFiles(second)) == (try second.segments.manifest().liveFileNames))
  }

  @Test("a damaged segment in a pack costs only itself: read around, then repair carries the rest")
  func damagedRecord() throws {
    let store = store()
    try store.keep(batch("a", sources: 0..<3))
    let pack = try #require(packs(store).first)
    // The third record: p1's segment (after the filters and p0's).
    try damageRecords(of: store.store.url(for: pack), where: { $0 == 2 })
    let (reading, said) = reader(noting: store)
    #expect(try reading.search(["story"]).articles.count == 10)
    #expect(try reading.articles(provider: "p2").count == 5)
    #expect(said.all.map(\.path) == [store.store.url(for: pack).path])
    // A commit does not carry what does not read, nor remove its pack.
    clock.advance(by: 60)
    try store.keep(batch("b", sources: 3..<4))
    #expect(store.store.names().contains(pack))
    let actions = try store.store.transaction { try store.segments.repair(in: $0) }
    #expect(actions.contains { $0.hasPrefix("dropped segment 1 of p1") }, "\(actions)")
    #expect(!store.store.names().contains(pack))
    #expect(try store.search(["story"]).articles.count == 15)
    #expect(Set(segmentFiles(store)) == (try store.segments.manifest().liveFileNames))
    #expect(try store.store.transaction { try store.segments.repair(in: $0) }.isEmpty)
  }

  @Test("a pack whose directory does not open still reads; repair writes its segments anew")
  func damagedDirectory() throws {
    let store = store()
    try store.keep(batch("a", sources: 0..<3))
    let pack = try #require(packs(store).first)
    let url = store.store.url(for: pack)
    let count = try recordCount(of: url)
    try damageRecords(of: url, where: { $0 == count - 1 })
    #expect(try store.search(["story"]).articles.count == 15)
    let actions = try store.store.transaction { try store.segments.repair(in: $0) }
    #expect(actions == ["wrote the readable segments of pack 3 into a new pack"])
    #expect(!store.store.names().contains(pack))
    #expect(try store.search(["story"]).articles.count == 15)
  }

  @Test("a search passes over the packed segments whose filter holds none of its words")
  func filtersPassOver() throws {
    let store = store()
    try store.keep(
      [
        ([article("x-0", provider: "p0", title: "zanzibar weather")], "p0"),
        ([article("x-1", provider: "p1", title: "harbour news")], "p1"),
        ([article("x-2", provider: "p2", title: "harbour zanzibar")], "p2"),
      ])
    let pack = try #require(packs(store).first)
    let place = try #require(try store.segments.manifest().providers["p0"]?.first?.pack)
    #expect(place.index == 1 && place.count == 5)
    let filters = try #require(SegmentPack.filters(ofPackAt: place, in: store.store))
    #expect(filters.count == 3 && filters.allSatisfy { $0 != nil })
    // p1's segment damaged: a search its filter turns away never opens it, one it may hold does.
    try damageRecords(of: store.store.url(for: pack), where: { $0 == 2 })
    let (reading, said) = reader(noting: store)
    for limit in [nil, 1] {
      let found = try reading.search(["zanzibar"], limit: limit).articles.map(\.id)
      #expect(found.sorted() == ["x-0", "x-2"], "\(found)")
      #expect(try reading.search(["anzib"], limit: limit).articles.count == 2)
    }
    #expect(said.all.isEmpty)
    #expect(try reading.search(["harbour"]).articles.map(\.id) == ["x-2"])
    #expect(said.all.map(\.path) == [store.store.url(for: pack).path])
  }

  @Test("a bundle's first record is read by its header alone, of the count it must have")
  func firstRecord() throws {
    let store = store()
    try store.keep(batch("a", sources: 0..<3))
    let pack = try #require(packs(store).first)
    let header = try #require(
      FileHandle(forReadingAtPath: store.store.url(for: pack).path)?.readData(ofLength: 13))
    let place = try #require(SealedBundle.firstPlace(inHeader: Array(header), count: 5))
    #expect(place.index == 0 && place.offset == 13 && place.length > 0)
    #expect(SealedBundle.firstPlace(inHeader: Array(header), count: 4) == nil)
    #expect(SealedBundle.firstPlace(inHeader: Array(header.prefix(12)), count: 5) == nil)
    var version = Array(header)
    version[4] = 2
    #expect(SealedBundle.firstPlace(inHeader: version, count: 5) == nil)
    let record = try #require(try store.store.readFirstRecord(of: pack, count: 5))
    #expect(try SegmentPack.filters(inRecord: record, count: 3).count == 3)
    #expect(throws: StoreError.self) { try store.store.readFirstRecord(of: pack, count: 4) }
    #expect(try store.store.readFirstRecord(of: "segs-999", count: 5) == nil)
  }

  @Test("a pack whose filters do not open is read whole; repair writes its segments anew")
  func damagedFilters() throws {
    let store = store()
    try store.keep(batch("a", sources: 0..<3))
    let pack = try #require(packs(store).first)
    try damageRecords(of: store.store.url(for: pack), where: { $0 == 0 })
    #expect(try store.search(["story"]).articles.count == 15)
    #expect(try store.search(["nowhere"]).articles.isEmpty)
    let actions = try store.store.transaction { try store.segments.repair(in: $0) }
    #expect(actions == ["wrote the readable segments of pack 3 into a new pack"])
    let place = try #require(try store.segments.manifest().providers["p0"]?.first?.pack)
    #expect(SegmentPack.filters(ofPackAt: place, in: store.store)?.count == 3)
  }

  @Test("a pack of the earlier layout, without filters, reads, searches and is carried along")
  func earlierPack() throws {
    let store = store()
    try store.keep(batch("a", sources: 0..<3))
    // The same segments written again as an earlier version packed them: no filters first.
    var manifest = try store.segments.manifest()
    let infos = manifest.providers.values.joined().sorted { $0.number < $1.number }
    let mains = try infos.map { try SegmentReader.main(of: $0, in: store.store) }
    let number = manifest.next
    manifest.next += 1
    try store.store.transaction { files in
      let places = try files.createBundle(
        count: infos.count + 1, name: StoreLayout.segmentPack(number)
      ) { index, _ in
        index < infos.count
          ? mains[index]
          : SegmentPack.directory(infos.map(\.number), magic: SegmentPack.firstDirectoryMagic)
      }
      for (info, place) in zip(infos, places) {
        let provider = manifest.providers.first { $0.value.contains(info) }!.key
        manifest.providers[provider] = [info]
        manifest.providers[provider]![0].pack = SegmentPlace(pack: number, place: place)
      }
      try store.segments.commit(manifest, in: files)
    }
    let place = try #require(try store.segments.manifest().providers["p1"]?.first?.pack)
    #expect(place.index == 1 && place.count == 4)
    #expect(SegmentPack.filters(ofPackAt: place, in: store.store) == nil)
    #expect(SegmentPack.segmentCount(place) == 2)
    #expect(
      try SegmentPack.contents(of: number, in: store.store).map(\.number) == infos.map(\.number))
    #expect(try store.search(["story"]).articles.count == 15)
    #expect(try store.search(["story"], limit: 3).articles.count >= 3)
    #expect(try store.search(["nowhere"]).articles.isEmpty)
    // The next commit carries the old pack's segments into a pack with filters.
    clock.advance(by: 60)
    try store.keep(batch("b", sources: 3..<10))
    #expect(!store.store.names().contains(StoreLayout.segmentPack(number)))
    let carried = try #require(try store.segments.manifest().providers["p1"]?.first?.pack)
    #expect(SegmentPack.filters(ofPackAt: carried, in: store.store)?.count == carried.count - 2)
    #expect(try store.search(["story"]).articles.count == 50)
  }

  @Test("a lost manifest is rebuilt from packs and segment files alike")
  func rebuilt() throws {
    let store = store()
    try store.keep(batch("a", sources: 0..<4))
    try store.keep((0..<300).map { article("big-\($0)", provider: "big") }, provider: "big")
    let before = try store.segments.manifest()
    try FileManager.default.removeItem(at: store.store.url(for: SegmentManifest.fileName))
    let rebuilt = store.segments.rebuiltManifest()
    #expect(rebuilt.providers == before.providers)
    #expect(try store.allArticles().count == 320)
  }

  @Test("segments of the earlier layout, a file each, read as before and move into packs")
  func earlierLayout() throws {
    let store = store()
    // What an earlier version wrote: 100 small segments, a file each.
    var manifest = SegmentManifest()
    for source in 0..<100 {
      let built = SegmentBuilder.build(
        number: source,
        records: [
          StoredArticle(
            article: article("old-\(source)", provider: "p\(source)"), seenAt: clock.now)
        ])
      for file in built.files { try store.store.write(bytes: file.bytes, name: file.name) }
      manifest.providers["p\(source)", default: []].append(built.info)
    }
    manifest.next = 100
    try store.store.transaction { try store.segments.commit(manifest, in: $0) }
    let moved = StoreLayout.segment(0)
    let movedBytes = try #require(try store.store.readBytes(moved))
    #expect(try store.search(["story"]).articles.count == 100)
    // Each commit moves some (a bounded number), until none is left.
    var commits = 0
    while segmentFiles(store).contains(where: { SegmentInfo.number(inFileName: $0) != nil }) {
      clock.advance(by: 60)
      try store.keep([article("new-\(commits)", provider: "new")], provider: "new")
      commits += 1
      #expect(commits <= 3)
      if commits > 3 { break }
    }
    #expect(commits == 2)
    #expect(segmentFiles(store).allSatisfy { SegmentPack.number(inFileName: $0) != nil })
    #expect(try store.search(["story"]).articles.count == 102)
    // A file a commit moved but did not get to remove (killed after its manifest): a leftover,
    // and a manifest rebuilt reads the segment from its pack.
    try store.store.write(bytes: movedBytes, name: moved)
    let committed = try store.segments.manifest()
    #expect(committed.isLeftover(moved))
    try FileManager.default.removeItem(at: store.store.url(for: SegmentManifest.fileName))
    // Every segment listed is found where the manifest had it (a pack may also hold segments
    // replaced since, older than what replaced them: read, they lose to it).
    let rebuilt = Dictionary(
      store.segments.rebuiltManifest().providers.values.joined().map { ($0.number, $0) },
      uniquingKeysWith: { first, _ in first })
    #expect(committed.providers.values.joined().allSatisfy { rebuilt[$0.number] == $0 })
    #expect(try store.allArticles().count == 102)
    let actions = try store.store.transaction { try store.segments.repair(in: $0) }
    #expect(actions.count == 1 && actions[0].hasPrefix("rebuilt the segment manifest"))
    #expect(!store.store.names().contains(moved))
    #expect(try store.allArticles().count == 102)
  }
}
