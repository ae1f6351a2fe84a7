import Foundation
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

@Suite("Article segments")
struct ArticleSegmentsTests {
  let directory = TemporaryDirectory()
  let clock = TestDate()

  func store(retention: RetentionPolicy = RetentionPolicy()) -> ArticleStore {
    let clock = self.clock
    return ArticleStore.testing(in: directory.url, retention: retention, now: { clock.now })
  }

  func article(_ id: String, title: String = "Title", provider: String = "newsapi") -> Article {
    Article(id: id, provider: provider, title: title)
  }

  /// The segment files of the store: segments' own and packs.
  func segmentFiles(_ store: ArticleStore) -> [String] {
    store.store.names().filter {
      SegmentInfo.number(inFileName: $0) != nil || SegmentPack.number(inFileName: $0) != nil
    }
  }

  @Test("a record keeps every field of an article (a new field must be added to the format)")
  func recordRoundTrip() throws {
    let article = Article(
      id: "example.com-a", provider: "newsapi", title: "Tïtle", description: "Description",
      author: "Author", publisher: "Source", url: "https://example.com/a",
      imageURL: "https://example.com/a.jpg", publishedAt: Date(timeIntervalSince1970: 1.5),
      content: "Content")
    // Every optional field is set, so a field added to Article shows here as nil.
    for child in Mirror(reflecting: article).children {
      if case Optional<Any>.none = child.value as Any? {
        Issue.record("\(child.label ?? "?") is nil")
      }
      let mirror = Mirror(reflecting: child.value)
      #expect(
        mirror.displayStyle != .optional || mirror.children.count == 1,
        "set \(child.label ?? "?") in this test and in StoredArticle+Binary")
    }
    let record = StoredArticle(article: article, seenAt: Date(timeIntervalSince1970: 7))
    var writer = BinaryWriter(magic: "")
    record.write(to: &writer)
    var reader = try #require(BinaryReader(writer.bytes, magic: ""))
    let read = try StoredArticle.read(from: &reader)
    #expect(reader.isAtEnd)
    #expect(read.article == article)
    #expect(read.seenAt == record.seenAt)
    var skipper = try #require(BinaryReader(writer.bytes, magic: ""))
    try StoredArticle.skip(in: &skipper)
    #expect(skipper.isAtEnd)
  }

  @Test(
    "search through the index finds exactly what matching every article finds",
    arguments: [
      UInt64(1), 2, 3,
    ])
  func searchEqualsMatching(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let vocabulary = [
      "Climate", "climat", "élection", "Election", "café", "CAFE", "u.s.", "covid-19", "naïve",
      "rust", "trust", "Straße", "東京", "news", "a", "2024", "",
    ]
    func text(_ count: Int) -> String {
      (0..<count).map { _ in vocabulary.randomElement(using: &random)! }
        .joined(separator: [" ", ", ", "-", "\n"].randomElement(using: &random)!)
    }
    let store = store(retention: RetentionPolicy(maximumCount: 100_000))
    // Several saves: a large segment (split in parts), small ones, ids saved again.
    for (save, size) in [700, 30, 30, 5, 300].enumerated() {
      clock.advance(by: 60)
      let articles = (0..<size).map { index in
        Article(
          id: "\(save == 3 ? "bbc" : "id")-\(Int.random(in: 0..<900, using: &random))",
          provider: "newsapi",
          title: text(4), description: Bool.random(using: &random) ? text(8) : nil,
          content: save % 2 == 0 ? text(12) : nil)
      }
      try store.keep(articles.uniquedByID(), provider: save == 3 ? "bbc" : "newsapi")
    }
    let all = try store.allArticles()
    let queries = [
      ["climate"], ["CLIM"], ["election"], ["cafe"], ["u.s."], ["19"], ["naive", "rust"],
      ["strasse"], ["東"], ["--"], ["a"], ["t"], ["zzz"], ["covid-19", "news"], ["2024 news"],
    ]
    for query in queries {
      #expect(
        try store.search(query).articles.map(\.id)
          == ArticleSearch.matching(query, in: all).map(\.id),
        "\(query)")
    }
  }

  @Test("a segment whose index spans several bucket files finds what matching every article finds")
  func searchAcrossBuckets() throws {
    var random = SeededGenerator(seed: 7)
    let store = store(retention: RetentionPolicy(maximumCount: 100_000))
    // 2,500 articles of 16 words each: 40,000 references, more than one bucket holds.
    let articles = (0..<2500).map { index in
      Article(
        id: "id-\(index)", provider: "newsapi",
        title: (0..<16).map { _ in "w\(Int.random(in: 0..<2000, using: &random))" }
          .joined(separator: " "))
    }
    try store.keep(articles, provider: "newsapi")
    let names = store.store.names()
    #expect(names.contains { $0.hasSuffix("-p0") } && names.contains { $0.hasSuffix("-p1") })
    let all = try store.allArticles()
    for query in [["w1"], ["w999"], ["w1", "w999"], ["w12"], ["w0", "w1999"], ["w2000"]] {
      #expect(
        try store.search(query).articles.map(\.id)
          == ArticleSearch.matching(query, in: all).map(\.id),
        "\(query)")
    }
  }

  @Test(
    "a search with a limit finds the newest matches a full search finds, reading fewer segments",
    arguments: [1, 5, 30, 400])
  func limitedSearch(limit: Int) throws {
    var random = SeededGenerator(seed: UInt64(limit))
    let store = store(retention: RetentionPolicy(maximumCount: 100_000))
    // Saves of different providers, each a week of articles, some ids saved again (newer wins),
    // some undated.
    for save in 0..<12 {
      clock.advance(by: 60)
      let articles = (0..<25).map { index in
        Article(
          id: "\(save % 3 == 0 ? "bbc" : "id")-\(Int.random(in: 0..<250, using: &random))",
          provider: save % 3 == 0 ? "bbc" : "newsapi",
          title: Bool.random(using: &random) ? "climate story \(save)-\(index)" : "other story",
          publishedAt: index == 0
            ? nil : Date(timeIntervalSince1970: Double(save * 7 * 86_400 + index * 3_600)))
      }
      try store.keep(articles.uniquedByID(), provider: save % 3 == 0 ? "bbc" : "newsapi")
    }
    let full = try store.search(["climate"])
    #expect(full.complete)
    let limited = try store.search(["climate"], limit: limit)
    #expect(
      Array(limited.articles.prefix(limit)).map(\.id)
        == Array(full.articles.prefix(limit)).map(\.id))
    // Only a limit under the number of matches can stop early, and then it does.
    #expect(limited.complete == (limit >= full.articles.count))
    if limit < full.articles.count { #expect(limited.articles.count < full.articles.count) }
  }

  @Test(
    "in a split segment a limited search reads its chunks newest first and stops",
    arguments: [false, true])
  func chunkedSearch(shuffled: Bool) throws {
    var random = SeededGenerator(seed: 7)
    let store = store(retention: .everything)
    // One keep of 3,000: one segment of 12 chunks, its records newest published first whatever
    // the order they came in.
    var dates = (0..<3_000).map { Double($0) * 3_600 }
    if shuffled { dates.shuffle(using: &random) }
    let articles = (0..<3_000).map { index in
      Article(
        id: String(format: "id-%05d", index), provider: "newsapi",
        title: index % 3 == 0 ? "climate story \(index)" : "other story \(index)",
        publishedAt: Date(timeIntervalSince1970: dates[index]))
    }
    try store.keep(articles, provider: "newsapi")
    let full = try store.search(["climate"])
    let limited = try store.search(["climate"], limit: 20)
    #expect(
      Array(limited.articles.prefix(20)).map(\.id) == Array(full.articles.prefix(20)).map(\.id))
    // The chunks' dates let it stop after the first few.
    #expect(!limited.complete)
    #expect(limited.articles.count < 300)
  }

  @Test("the newer record of an id wins, in search too")
  func newerWins() throws {
    let store = store()
    try store.keep([article("a", title: "old climate story")], provider: "newsapi")
    clock.advance(by: 60)
    try store.keep([article("a", title: "new story")], provider: "newsapi")
    #expect(try store.search(["climate"]).articles.isEmpty)
    #expect(try store.search(["new"]).articles.map(\.title) == ["new story"])
    #expect(try store.articles(provider: "newsapi").map(\.title) == ["new story"])
  }

  @Test("saving the same page again and again keeps the segments few")
  func compaction() throws {
    let store = store()
    let page = (0..<20).map { article("a\($0)") }
    for _ in 0..<50 {
      clock.advance(by: 60)
      try store.keep(page, provider: "newsapi")
    }
    #expect(try store.segments.manifest().providers["newsapi"]?.count == 1)
    #expect(segmentFiles(store).count == 1)
    for index in 0..<40 {
      clock.advance(by: 60)
      try store.keep([article("b\(index)")], provider: "newsapi")
    }
    // Sizes at most halving from the oldest: a logarithmic number of segments.
    let infos = try #require(store.segments.manifest().providers["newsapi"])
    #expect(infos.count <= 7)
    #expect(zip(infos, infos.dropFirst()).allSatisfy { $0.count > 2 * $1.count })
    #expect(try store.articles(provider: "newsapi").count == 60)
    // Every one a small segment, in packs: few files, none left of the segments replaced.
    #expect(segmentFiles(store).count <= 4, "\(segmentFiles(store))")
    #expect(Set(segmentFiles(store)) == (try store.segments.manifest().liveFileNames))
  }

  @Test("an expression's word narrows by the index: /\\bAI\\b/ reads the records holding it")
  func regexNarrows() throws {
    let store = store()
    let texts = (0..<40).map { "said again \($0)" } + ["The AI race", "“AI” rules"]
    try store.keep(
      texts.enumerated().map { article("a\($0.offset)", title: $0.element) }, provider: "newsapi")
    let info = try #require(try store.segments.manifest().providers["newsapi"]?.first)
    let segment = try SegmentReader(info, in: store.store)
    let bounded = RegexRuns.required(in: "\\bAI\\b")
    #expect(try segment.records(holdingAll: bounded)?.count == 2)
    #expect(try segment.records(holdingAll: [IndexRun(bytes: Array("ai".utf8))])?.count == 42)
    let query = try ArticleQuery("/\\bAI\\b/", timeZone: .gmt)
    let found = try store.search(QueryMatcher(query, facts: QueryFacts(now: clock.now)))
    #expect(Set(found.articles.map(\.title)) == ["The AI race", "“AI” rules"])
  }

  @Test("retention: the oldest beyond the maximum go at compaction, expired ones are not read")
  func retention() throws {
    let store = store(retention: RetentionPolicy(maximumAge: .seconds(86_400), maximumCount: 8))
    for index in 0..<12 {
      clock.advance(by: 60)
      try store.keep([article("a\(index)", title: "story")], provider: "newsapi")
    }
    let kept = try store.articles(provider: "newsapi").map(\.id)
    #expect(kept == (4..<12).reversed().map { "a\($0)" })
    #expect(try store.search(["story"]).articles.count >= 8)
    clock.advance(by: 2 * 86_400)
    #expect(try store.articles(provider: "newsapi").isEmpty)
    #expect(try store.search(["story"]).articles.isEmpty)
    try store.keep([article("fresh")], provider: "newsapi")
    #expect(try store.segments.manifest().providers["newsapi"]?.map(\.count) == [1])
  }

  @Test("a store written by the earlier format is migrated once, under the lock, without loss")
  func migration() throws {
    let store = store()
    let old = (0..<30).map {
      StoredArticle(
        article: article("old\($0)", title: "climate \($0)"), seenAt: clock.now)
    }
    // Exactly what the earlier version wrote: one JSON list per provider.
    try store.store.write(old, name: "articles-newsapi")
    try store.store.write(
      [StoredArticle(article: article("b1", provider: "bbc"), seenAt: clock.now)],
      name: "articles-bbc")
    #expect(try store.search(["climate"]).articles.count == 30)
    #expect(!store.store.names().contains { $0.hasPrefix("articles-") })
    #expect(try store.articles(provider: "bbc").map(\.id) == ["b1"])
    // Saved again after: the migrated records are the older ones.
    clock.advance(by: 60)
    try store.keep([article("old3", title: "renamed")], provider: "newsapi")
    #expect(try store.search(["climate"]).articles.count == 29)
    #expect(try store.allArticles().count == 31)
  }

  @Test("a store found without earlier files is not listed for them again by the same process")
  func legacyLookedForOnce() throws {
    let store = store()
    try store.keep([article("new")], provider: "newsapi")
    #expect(try store.allArticles().map(\.id) == ["new"])
    // Written as an earlier version would, after this process looked: not looked for again.
    try store.store.write(
      [StoredArticle(article: article("b1", provider: "bbc"), seenAt: clock.now)],
      name: "articles-bbc")
    #expect(try store.allArticles().map(\.id) == ["new"])
    // A process opening the store afresh migrates it.
    let fresh = self.store()
    #expect(Set(try fresh.allArticles().map(\.id)) == ["new", "b1"])
  }

  @Test(
    "segment files an interrupted save left are ignored, then removed by the next save that can tell"
  )
  func leftovers() throws {
    let store = store()
    try store.keep([article("a", title: "kept")], provider: "newsapi")
    let next = try store.segments.manifest().next
    // A save that died before its manifest: its segment exists, under the next number.
    let built = SegmentBuilder.build(
      number: next,
      records: [StoredArticle(article: article("z", title: "kept"), seenAt: clock.now)])
    for file in built.files { try store.store.write(bytes: file.bytes, name: file.name) }
    #expect(try store.search(["kept"]).articles.map(\.id) == ["a"])
    clock.advance(by: 60)
    try store.keep([article("b", title: "kept")], provider: "newsapi")
    #expect(Set(try store.search(["kept"]).articles.map(\.id)) == ["a", "b"])
    let live = try store.segments.manifest().liveFileNames
    #expect(Set(segmentFiles(store)) == live)
    // One that is not the next number's main file: the process's later saves do not list the
    // directory for it; the next process's first save does.
    let stray = StoreLayout.segment(try store.segments.manifest().next + 3, "-c0")
    try store.store.write(bytes: [1, 2, 3], name: stray)
    clock.advance(by: 60)
    try store.keep([article("c", title: "kept")], provider: "newsapi")
    #expect(store.store.names().contains(stray))
    let nextProcess = self.store()
    try nextProcess.keep([article("d", title: "kept")], provider: "newsapi")
    #expect(!nextProcess.store.names().contains(stray))
    #expect(Set(try nextProcess.search(["kept"]).articles.map(\.id)) == ["a", "b", "c", "d"])
  }

  @Test("a damaged segment file is named, never overwritten, and nothing is committed")
  func damagedSegment() throws {
    let store = store(retention: RetentionPolicy(maximumCount: 100_000))
    try store.keep((0..<600).map { article("a\($0)", title: "story \($0)") }, provider: "newsapi")
    let info = try #require(try store.segments.manifest().providers["newsapi"]?.first)
    #expect(info.chunks == 3)
    let chunk = store.store.url(for: info.chunkName(1))
    var bytes = try Data(contentsOf: chunk)
    bytes[bytes.count - 20] ^= 1
    try bytes.write(to: chunk)
    let manifest = try store.store.readBytes(SegmentManifest.fileName)
    // A reader goes on around it (its articles left out, said as a warning)…
    #expect(try store.search(["story"]).articles.isEmpty)
    // …but a full compaction would need the damaged records: it stops before committing anything.
    #expect(throws: StoreError.undecryptable(path: chunk.path)) {
      try store.keep((0..<700).map { article("b\($0)") }, provider: "newsapi")
    }
    #expect(try Data(contentsOf: chunk) == bytes)
    #expect(try store.store.readBytes(SegmentManifest.fileName) == manifest)
    // A missing file is damage too: read around, and named as missing to a writer.
    try FileManager.default.removeItem(at: chunk)
    #expect(try store.search(["story"]).articles.isEmpty)
    #expect {
      try store.keep((0..<700).map { article("b\($0)") }, provider: "newsapi")
    } throws: { error in
      (error as? StoreError)?.message.contains("\(info.chunkName(1)).enc: it is missing") == true
    }
  }

  @Test("nothing readable on disk: no word, no id, no provider in a name or a byte")
  func nothingReadable() throws {
    let store = store()
    try store.keep(
      [article("secret-id", title: "Confidential climate words")], provider: "privateprovider")
    for name in store.store.names() {
      #expect(!name.contains("private"))
      let bytes = try Data(contentsOf: store.store.url(for: name))
      for word in ["secret", "Confidential", "climate", "privateprovider"] {
        #expect(bytes.range(of: Data(word.utf8)) == nil, "\(word) in \(name)")
      }
    }
  }

  @Test("a reader that races a compaction reads the new manifest; the same one twice is damage")
  func readerRetries() throws {
    let store = store()
    try store.keep([article("a")], provider: "newsapi")
    var calls = 0
    let next = try store.segments.reading { manifest in
      calls += 1
      if calls == 1 {
        // A compaction by another process, between reading the manifest and a segment file.
        try store.keep([article("b")], provider: "newsapi")
        throw SegmentFileMissing(name: "seg-0")
      }
      return manifest.next
    }
    #expect(calls == 2)
    #expect(next == (try store.segments.manifest().next) && next > 2)
    #expect(throws: StoreError.self) {
      try store.segments.reading { _ -> Int in throw SegmentFileMissing(name: "seg-9") }
    }
  }

  @Test(
    "repair drops the smallest damaged unit: a chunk's articles; ids and index are made again",
    arguments: [("c2", 512), ("c0", 344), ("ids", 600), ("p0", 600), ("main", 600)])
  func repairDropsDamagedParts(part: String, kept: Int) throws {
    let store = store(retention: RetentionPolicy(maximumCount: 100_000))
    try store.keep((0..<600).map { article("a\($0)", title: "story \($0)") }, provider: "newsapi")
    try store.keep([article("b1", title: "story b", provider: "bbc")], provider: "bbc")
    let damaged = try #require(try store.segments.manifest().providers["newsapi"]?.first)
    let name =
      switch part {
      case "ids": damaged.idsName
      case "main": damaged.mainName
      case "p0": damaged.bucketName(0)
      default: damaged.chunkName(Int(part.dropFirst())!)
      }
    let file = store.store.url(for: name)
    var bytes = try Data(contentsOf: file)
    bytes[40] ^= 1
    try bytes.write(to: file)
    // Saves that need not read it still work; a search reads around it (the segment's articles
    // left out, said as a warning), only b1 and what else reads found.
    try store.keep([article("x")], provider: "newsapi")
    #expect(try store.search(["story"]).articles.map(\.id).contains("b1"))

    let actions = try store.store.transaction { try store.segments.repair(in: $0) }
    #expect(actions.count == 1)
    if kept == 0 {
      #expect(
        actions.first?.hasPrefix("dropped segment \(damaged.number) of newsapi (600 articles)")
          == true)
    } else if part == "main" {
      // The main file lost, its chunks still read: every article is kept.
      #expect(actions.first?.contains("600 of 600 articles kept") == true, "\(actions)")
    } else {
      #expect(
        actions.first?.hasPrefix("rebuilt segment \(damaged.number) of newsapi as segment ") == true
      )
      #expect(actions.first?.contains("\(kept) of 600 articles kept") == true, "\(actions)")
    }
    let found = try store.search(["story"]).articles.map(\.id)
    #expect(found.count == kept + 1)
    #expect(found.contains("b1"))
    // Articles of the chunks that read are all there, with their text.
    if kept == 600 { #expect(try store.article(id: "a599")?.title == "story 599") }
    try store.keep([article("x", title: "story x")], provider: "newsapi")
    #expect(Set(try store.search(["story"]).articles.map(\.id)).isSuperset(of: ["b1", "x"]))
    #expect(!store.store.names().contains { $0.hasPrefix("seg-\(damaged.number)-") })
    #expect(!store.store.names().contains("seg-\(damaged.number)"))
    // A healthy store has nothing to repair.
    #expect(try store.store.transaction { try store.segments.repair(in: $0) }.isEmpty)
  }

  @Test("repair rebuilds a manifest that does not open from the segments, losing nothing")
  func repairManifest() throws {
    let store = store(retention: RetentionPolicy(maximumCount: 100_000))
    try store.keep((0..<600).map { article("a\($0)", title: "story \($0)") }, provider: "newsapi")
    try store.keep([article("b", title: "story", provider: "bbc")], provider: "bbc")
    try store.keep([article("c", title: "story")], provider: "newsapi")
    let before = try store.segments.manifest()
    let manifest = store.store.url(for: SegmentManifest.fileName)
    var bytes = try Data(contentsOf: manifest)
    bytes[bytes.count / 2] ^= 1
    try bytes.write(to: manifest)
    // Readers go on through the segment files; writers stop at it.
    #expect(try store.search(["story"]).articles.count == 602)
    #expect(throws: StoreError.self) {
      try store.keep([article("x", title: "story")], provider: "newsapi")
    }
    let actions = try store.store.transaction { try store.segments.repair(in: $0) }
    #expect(
      actions == [
        "rebuilt the segment manifest from the segment files, it did not open (the file "
          + "\(manifest.path) does not decrypt (wrong key or corrupted)): 3 segments of 2 "
          + "providers, 602 articles kept"
      ] || actions.first?.contains("602 articles kept") == true, "\(actions)")
    #expect(try store.segments.manifest().providers == before.providers)
    #expect(try store.search(["story"]).articles.count == 602)
    try store.keep([article("d", title: "story")], provider: "newsapi")
    #expect(try store.search(["story"]).articles.count == 603)
    // Numbers are never reused.
    #expect(try store.segments.manifest().providers["newsapi"]?.last?.number == before.next)
  }

  @Test(
    "a manifest that is gone is rebuilt from the segments: reads and saves lose nothing, doctor says so, repair writes it"
  )
  func missingManifest() throws {
    let store = store(retention: RetentionPolicy(maximumCount: 100_000))
    try store.keep((0..<300).map { article("a\($0)", title: "story \($0)") }, provider: "newsapi")
    try store.keep([article("b", title: "story", provider: "bbc")], provider: "bbc")
    let files = Set(store.store.names())
    try FileManager.default.removeItem(at: store.store.url(for: SegmentManifest.fileName))
    #expect(try store.search(["story"]).articles.count == 301)
    #expect(try store.allArticles().count == 301)
    // A save keeps every segment file it did not list (none is a leftover), and commits; the
    // small segments' pack, listed by the manifest rebuilt, is carried into the save's.
    try store.keep([article("c", title: "story")], provider: "newsapi")
    #expect(try store.search(["story"]).articles.count == 302)
    #expect(files.filter { !$0.hasPrefix("segs-") }.isSubset(of: store.store.names()))
    try FileManager.default.removeItem(at: store.store.url(for: SegmentManifest.fileName))
    let actions = try store.store.transaction { try store.segments.repair(in: $0) }
    #expect(actions.first?.contains("it was missing") == true, "\(actions)")
    #expect(store.store.names().contains(SegmentManifest.fileName))
    #expect(try store.search(["story"]).articles.count == 302)
  }

  @Test("only provable leftovers are removed: an interrupted save's or a retired segment's files")
  func provableLeftovers() {
    var manifest = SegmentManifest()
    manifest.next = 5
    manifest.providers["p"] = [
      SegmentInfo(number: 3, count: 1, oldestSeen: 0, chunks: 0, buckets: 0)
    ]
    manifest.retired = [2]
    #expect(manifest.isLeftover("seg-5"))
    #expect(manifest.isLeftover("seg-7-c0"))
    #expect(manifest.isLeftover("seg-2"))
    #expect(!manifest.isLeftover("seg-3"))
    #expect(!manifest.isLeftover("seg-1"))
    #expect(!manifest.isLeftover("segments"))
    #expect(!manifest.isLeftover("listing-3"))
  }

  @Test("the manifest is written compact; one in the JSON of earlier versions still reads")
  func manifestFormats() throws {
    let store = store()
    try store.keep([article("a", title: "story")], provider: "newsapi")
    let magic = Array(SegmentManifest.magic.utf8)
    let bytes = try #require(try store.store.readBytes(SegmentManifest.fileName))
    #expect(bytes.starts(with: magic))
    var manifest = try store.segments.manifest()
    manifest.retired = [7]
    manifest.providers["other"] = [
      SegmentInfo(number: 9, count: 2, oldestSeen: 1.5, chunks: 3, buckets: 4),
      SegmentInfo(
        number: 10, count: 1, oldestSeen: 2, chunks: 0, buckets: 0,
        newestPublished: SegmentInfo.undated,
        pack: SegmentPlace(
          pack: 11, place: SealedBundle.Place(index: 0, count: 2, offset: 13, length: 70))),
    ]
    #expect(try SegmentManifest.decode(manifest.encoded()) == manifest)
    // What an earlier version wrote: read as it is, and written compact by the next commit.
    let earlier = try store.segments.manifest()
    try store.store.write(earlier, name: SegmentManifest.fileName)
    #expect(try store.store.readBytes(SegmentManifest.fileName)?.starts(with: magic) == false)
    #expect(try SegmentManifest.stored(in: store.store) == earlier)
    try store.keep([article("b", title: "story two")], provider: "newsapi")
    #expect(try store.store.readBytes(SegmentManifest.fileName)?.starts(with: magic) == true)
    #expect(try store.search(["story"]).articles.count == 2)
    // Cut short: unreadable, and named so; never taken for an empty store.
    let current = try #require(try store.store.readBytes(SegmentManifest.fileName))
    try store.store.write(bytes: Array(current.dropLast(2)), name: SegmentManifest.fileName)
    let path = store.store.url(for: SegmentManifest.fileName).path
    #expect(throws: StoreError.unreadableContent(path: path, detail: "bad integer")) {
      try SegmentManifest.stored(in: store.store)
    }
  }

  @Test("a store of the earlier format reads, and its next commit says it is of this one")
  func versionRaised() throws {
    let store = store()
    try store.keep([article("a", title: "story")], provider: "newsapi")
    #expect(try SegmentManifest.stored(in: store.store)?.version == 2)
    // As an earlier version left it: version 1, read as it is.
    var manifest = try store.segments.manifest()
    manifest.version = 1
    try store.store.write(bytes: manifest.encoded(), name: SegmentManifest.fileName)
    #expect(try store.search(["story"]).articles.map(\.id) == ["a"])
    clock.advance(by: 60)
    try store.keep([article("b", title: "story")], provider: "newsapi")
    #expect(try SegmentManifest.stored(in: store.store)?.version == SegmentManifest.currentVersion)
    #expect(Set(try store.search(["story"]).articles.map(\.id)) == ["a", "b"])
  }

  @Test("the manifest a commit holds is the one on disk, until another process replaces it")
  func heldManifest() throws {
    let store = store()
    for (index, word) in ["storm", "climate", "tide"].enumerated() {
      clock.advance(by: 60)
      try store.keep(
        (0..<(index * 300 + 1)).map { article("\(word)-\($0)", title: "\(word) \($0)") },
        provider: "feed-\(index)")
    }
    // What a commit held is what its bytes decode to: packs, summaries, generation and all.
    let bytes = try #require(try store.store.readBytes(SegmentManifest.fileName))
    let held = try #require(try SegmentManifest.stored(in: store.store))
    #expect(try SegmentManifest.decode(bytes) == held)
    #expect(held.providers.count == 3 && held.generation == 3)
    // Another process's commit (a store of its own over the same directory) is read, not the
    // value held.
    let other = ArticleStore.testing(in: directory.url, now: { [clock] in clock.now })
    clock.advance(by: 60)
    try other.keep([article("late", title: "late news")], provider: "feed-3")
    #expect(try SegmentManifest.stored(in: store.store)?.providers["feed-3"]?.count == 1)
    #expect(try store.search(["late"]).articles.map(\.id) == ["late"])
    // A file changed in place (a torn write, a restore) is read again too: here, cut short.
    let current = try #require(try store.store.readBytes(SegmentManifest.fileName))
    try store.store.write(bytes: Array(current.dropLast(2)), name: SegmentManifest.fileName)
    #expect(throws: StoreError.self) { try SegmentManifest.stored(in: store.store) }
  }

  @Test("records sorted by their keys are in the order precedes gives, ties and all")
  func sortedByKeys() {
    var generator = SeededGenerator(seed: 21)
    // Few distinct times, dates and ids: every tie is met, undated records among them.
    let records = (0..<2_000).map { _ in
      var article = Article(
        id: "id-\(Int.random(in: 0..<50, using: &generator))", provider: "p", title: "t")
      let day = Int.random(in: 0..<4, using: &generator)
      article.publishedAt = day == 0 ? nil : Date(timeIntervalSince1970: Double(day) * 86_400)
      return StoredArticle(
        article: article,
        seenAt: Date(timeIntervalSince1970: Double(Int.random(in: 0..<3, using: &generator))))
    }
    let expected = records.sorted(by: ArticleSegments.precedes)
    let sorted = ArticleSegments.sorted(records)
    #expect(sorted.map(\.article.id) == expected.map(\.article.id))
    #expect(sorted.map(\.seenAt) == expected.map(\.seenAt))
    #expect(sorted.map(\.article.publishedAt) == expected.map(\.article.publishedAt))
  }

  @Test("segments of a newer format are refused, never repaired away")
  func newerFormat() throws {
    let store = store()
    try store.keep([article("a", title: "story")], provider: "newsapi")
    var manifest = try store.segments.manifest()
    manifest.version = SegmentManifest.currentVersion + 1
    try store.store.write(manifest, name: SegmentManifest.fileName)
    let path = store.store.url(for: SegmentManifest.fileName).path
    let refused = StoreError.unsupportedVersion(path: path, version: UInt8(manifest.version))
    #expect(throws: refused) { try store.search(["story"]).articles }
    #expect(throws: refused) {
      try store.store.transaction { try store.segments.repair(in: $0) }
    }
    #expect(try SegmentManifest.stored(in: store.store) == manifest)
  }
}
