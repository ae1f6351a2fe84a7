import Foundation

/// The stored articles as segments: each save appends a segment of what it saw, compaction
/// merges them (the newer record of an id wins), and the manifest, written last under the lock,
/// is the one commit point (see ``SegmentManifest``).
///
/// A save costs what it saved: a new segment, merged with the newest ones while they are no more
/// than twice its size (so a record is rewritten a logarithmic number of times), and a full
/// compaction, applying the retention policy, when a provider holds a quarter more records than
/// it keeps or some were not seen within the retention age a day ago.
struct ArticleSegments {
  let store: EncryptedStore
  let retention: RetentionPolicy

  // MARK: Reading

  /// The manifest; an empty one before the first save. A manifest that is gone while segment
  /// files remain is rebuilt from them (``rebuiltManifest()``), never taken for an empty store.
  ///
  /// - Throws: ``StoreError/unsupportedVersion(path:version:)`` for segments of a newer format.
  func manifest() throws -> SegmentManifest {
    // The head first: a writer writes the manifest, then the head, so a manifest read after its
    // head is never older than it but when it was put back.
    let head = self.head()
    guard let manifest = try SegmentManifest.stored(in: store)
    else { return rebuiltManifest() }
    guard manifest.version <= SegmentManifest.currentVersion else {
      throw StoreError.unsupportedVersion(
        path: store.url(for: SegmentManifest.fileName).path,
        version: UInt8(clamping: manifest.version))
    }
    if let head = rollback(of: manifest, head: head) {
      // Put back from an older copy: the segment files say what is stored.
      var rebuilt = rebuiltManifest()
      rebuilt.generation = head.generation
      return rebuilt
    }
    return manifest
  }

  /// The head; `nil` when there is none, or it does not open (doctor names a damaged one).
  func head() -> SegmentHead? {
    try? store.read(SegmentHead.self, name: SegmentHead.fileName)
  }

  /// `head`, when `manifest` (read after it) is older than it: a rolled-back manifest.
  func rollback(of manifest: SegmentManifest, head: SegmentHead?) -> SegmentHead? {
    guard let head, head.generation > manifest.generation ?? 0 else { return nil }
    return head
  }

  /// Writes `manifest`: the commit point of a save, a compaction, a migration or a repair;
  /// then the head, with its generation.
  func commit(_ manifest: SegmentManifest, in files: EncryptedStore.Transaction) throws {
    // The segment files made for it are named on disk before the manifest that lists them.
    files.syncDirectory()
    var manifest = manifest
    let generation = (manifest.generation ?? 0) + 1
    manifest.generation = generation
    // What it lists is written in this version's format, or read by it: an earlier version
    // must refuse it.
    manifest.version = SegmentManifest.currentVersion
    try files.write(bytes: manifest.encoded(), name: SegmentManifest.fileName)
    store.hold(manifest, name: SegmentManifest.fileName)
    let head = Array(try JSONEncoder().encode(SegmentHead(generation: generation)))
    do {
      try files.write(bytes: head, name: SegmentHead.fileName)
    } catch let error as StoreError where error.isDamage {
      // A damaged head says nothing: the one just committed replaces it.
      try files.remove(SegmentHead.fileName)
      try files.write(bytes: head, name: SegmentHead.fileName)
    }
  }

  /// Runs `body` on the manifest, again on a fresh one whenever a compaction removed a segment
  /// file in between (writers may follow one another: it tries as long as the manifest keeps
  /// changing, up to a bound); a file missing from a manifest that did not change is damage,
  /// named. Never lets ``SegmentFileMissing`` out.
  ///
  /// A file still missing from a manifest that did not change is damage like any other: read
  /// around by ``aroundDamage(_:of:_:)`` (said once), so that a list, a search or `show` go on
  /// without that segment's articles, and repair rebuilds it. A manifest that does not open is
  /// read around too, through one rebuilt from the segment files (said once); only writers stop
  /// at it.
  func reading<T>(_ body: (SegmentManifest) throws -> T) throws -> T {
    var manifest = try readableManifest()
    var missing = Self.missingFiles
    for _ in 0..<Self.maximumReadAttempts {
      do {
        return try Self.$missingFiles.withValue(missing) { try body(manifest) }
      } catch let gone as SegmentFileMissing {
        let fresh = try readableManifest()
        if fresh != manifest {
          manifest = fresh
        } else if !missing.insert(gone.name).inserted {
          break
        }
      }
    }
    throw StoreError.listedButMissing(
      path: store.url(for: missing.first ?? SegmentManifest.fileName).path,
      listedBy: "the store's segment manifest")
  }

  /// The segment files known to be missing from the manifest being read (not a compaction in
  /// between): read around as damage.
  @TaskLocal static var missingFiles: Set<String> = []

  /// ``manifest()`` for readers: one that does not open is said once and read through one
  /// rebuilt from the segment files.
  private func readableManifest() throws -> SegmentManifest {
    do {
      return try manifest()
    } catch let error as StoreError where error.isDamage {
      store.sayDamaged(
        at: error.path ?? store.url(for: SegmentManifest.fileName).path,
        leftOut: "the segments are read from their own files",
        advice: .repairStore(does: "rebuilds it from the segment files"))
      return rebuiltManifest()
    }
  }

  /// How many manifests a reader goes through while writers compact under it.
  static let maximumReadAttempts = 64

  /// The records of `infos` (one provider's segments, oldest first), the newer record of an id
  /// winning, those seen before `cutoff` left out, most recently seen first; at most `limit`.
  /// For writers: a damaged segment fails it.
  func records(of infos: [SegmentInfo], cutoff: Date, limit: Int? = nil) throws -> [StoredArticle] {
    var all: [StoredArticle] = []
    for info in infos { all += try SegmentReader(info, in: store).records().map(\.record) }
    return Self.merged(all, cutoff: cutoff, limit: limit)
  }

  /// ``records(of:cutoff:limit:)`` for readers: a damaged segment of `provider` is read around
  /// (``aroundDamage(_:of:_:)``).
  func readableRecords(
    of infos: [SegmentInfo], provider: String, cutoff: Date, limit: Int? = nil
  ) throws -> [StoredArticle] {
    try readable(of: infos, provider: provider, cutoff: cutoff, limit: limit) {
      try SegmentReader($0, in: store).records().map(\.record)
    }
  }

  /// ``readableRecords(of:provider:cutoff:limit:)`` as `read` builds each segment's records.
  private func readable<Record: SegmentRecord>(
    of infos: [SegmentInfo], provider: String, cutoff: Date, limit: Int?, ordered: Bool = true,
    _ read: (SegmentInfo) throws -> [Record]
  ) throws -> [Record] {
    var all: [Record] = []
    all.reserveCapacity(infos.reduce(0) { $0 + $1.count })
    for info in infos {
      all += try aroundDamage(info, of: provider) { try read(info) } ?? []
    }
    return Self.merged(all, cutoff: cutoff, limit: limit, ordered: ordered)
  }

  /// What `body` answers of segment `info`, or `nil` when a file of it is damaged: a reader
  /// goes on around it, said once as a warning (repair rebuilds it from the parts that read).
  /// Writers never read around: what they would write back would lose it.
  func aroundDamage<T>(_ info: SegmentInfo, of provider: String, _ body: () throws -> T) throws
    -> T?
  {
    do {
      return try body()
    } catch let error as StoreError where error.isDamage {
      store.sayDamaged(
        at: error.path ?? store.url(for: info.mainFile).path,
        leftOut: "the articles of segment \(info.number) of \(provider) in it are left out",
        advice: .repairStore(does: "rebuilds the segment from the parts that read"))
      return nil
    } catch let gone as SegmentFileMissing where Self.missingFiles.contains(gone.name) {
      store.sayDamaged(
        at: store.url(for: gone.name).path,
        leftOut: "the articles of segment \(info.number) of \(provider) in it are left out (the "
          + "file is missing)",
        advice: .repairStore(does: "rebuilds the segment from the parts that remain"))
      return nil
    }
  }

  /// The live records of `provider`: as retention keeps them.
  func records(provider: String, cutoff: Date) throws -> [StoredArticle] {
    try reading { manifest in
      try readableRecords(
        of: manifest.providers[provider] ?? [], provider: provider, cutoff: cutoff,
        limit: retention.maximumCount)
    }
  }

  /// The live records of every provider (one reading of the manifest), providers in order.
  func records(cutoff: Date) throws -> [(provider: String, records: [StoredArticle])] {
    try everyProvider(cutoff: cutoff) { try SegmentReader($0, in: store).records().map(\.record) }
  }

  /// The heads of the live records of every provider: the records ``records(cutoff:)`` gives,
  /// their text not built, each provider's in any order. A segment `kept` holds is not read
  /// again; `kept` is left holding the segments listed now.
  func heads(cutoff: Date, kept: SegmentHeads? = nil) throws -> [(
    provider: String, records: [StoredHead]
  )] {
    var listed = Set<Int>()
    let heads = try everyProvider(cutoff: cutoff, ordered: false) { info in
      listed.insert(info.number)
      if let heads = kept?.heads(of: info) { return heads }
      let heads = try SegmentReader(info, in: store).heads()
      kept?.keep(heads, of: info)
      return heads
    }
    kept?.keepOnly(listed)
    return heads
  }

  /// The live records of every provider, providers in order, each segment's read by `read`.
  private func everyProvider<Record: SegmentRecord>(
    cutoff: Date, ordered: Bool = true, _ read: (SegmentInfo) throws -> [Record]
  ) throws -> [(provider: String, records: [Record])] {
    try reading { manifest in
      try manifest.providers.keys.sorted().map { provider in
        (
          provider,
          try readable(
            of: manifest.providers[provider]!, provider: provider, cutoff: cutoff,
            limit: retention.maximumCount, ordered: ordered, read)
        )
      }
    }
  }

  /// The stored articles holding every word of `matcher`, by id: the index narrows each
  /// segment to the records holding the query's words, the matcher decides on their text.
  func search(_ matcher: inout some RecordFilter, cutoff: Date) throws -> [String: Article] {
    let runs = matcher.indexRuns
    let oldest = cutoff.timeIntervalSince1970
    return try reading { manifest in
      var found: [String: Article] = [:]
      var filters = PackFilters(store: store)
      for provider in manifest.providers.keys.sorted()
      where matcher.providers?.contains(provider) ?? true {
        let infos = manifest.providers[provider]!
        // Ids of the segments newer than the one being read: their records win.
        var newerIDs = Set<String>()
        var newerIDsFrom = infos.count
        var opened: [Int: SegmentReader] = [:]
        for index in infos.indices.reversed()
        where !matcher.skips(infos[index]) && filters.mayHold(any: runs, infos[index]) {
          guard
            let segment = try aroundDamage(
              infos[index], of: provider,
              {
                try SegmentReader(infos[index], in: store)
              })
          else { continue }
          opened[index] = segment
          guard
            let narrowed = try aroundDamage(
              infos[index], of: provider, { try segment.records(holdingAny: runs) })
          else { continue }
          let candidates = matcher.dated(matcher.admitted(narrowed, of: segment), of: segment)
          if candidates?.isEmpty == true { continue }
          while newerIDsFrom > index + 1 {
            newerIDsFrom -= 1
            let info = infos[newerIDsFrom]
            let reader = opened[newerIDsFrom]
            newerIDs.formUnion(
              try aroundDamage(info, of: provider) {
                try (reader ?? SegmentReader(info, in: store)).ids()
              } ?? [])
          }
          let records =
            try aroundDamage(infos[index], of: provider) { try segment.records(candidates) } ?? []
          for (_, record) in records
          where record.seenAt.timeIntervalSince1970 >= oldest
            && !newerIDs.contains(record.article.id)
            && matcher.accepts(record.article, seenAt: record.seenAt)
          {
            found[record.article.id] = record.article
          }
        }
      }
      return found
    }
  }

  /// The stored articles of `ids`, looked for in `provider`'s segments (every provider's when
  /// `nil`), newest records first.
  func find(
    _ ids: Set<String>, provider: String?, cutoff: Date, order: [String] = []
  ) throws -> [String: Article] {
    try reading { manifest in
      // An id several providers hold (one link in two sources) is answered by the first of
      // `order` that holds it, then by name: always the same copy.
      let listed = order.filter { manifest.providers[$0] != nil }
      let named = Set(listed)
      let providers =
        provider.map { [$0] }
        ?? listed + manifest.providers.keys.filter { !named.contains($0) }.sorted()
      var found: [String: Article] = [:]
      var wanted = ids
      for provider in providers where !wanted.isEmpty {
        let done = try find(wanted, of: provider, in: manifest, cutoff: cutoff, into: &found)
        wanted.subtract(done)
      }
      return found
    }
  }

  /// The stored articles of each provider's `ids` (what each holds of them), one reading of
  /// the manifest.
  func find(_ wanted: [String: Set<String>], cutoff: Date) throws -> [String: Article] {
    try reading { manifest in
      var found: [String: Article] = [:]
      for (provider, ids) in wanted {
        try find(ids, of: provider, in: manifest, cutoff: cutoff, into: &found)
      }
      return found
    }
  }

  /// The articles of `heads` read where they were read (``ArticleHead/place``), by id: those
  /// whose segment was replaced since, or holds another record there, are left out. The files
  /// read are kept in `files`, when given, and read from there the next time.
  func read(placed heads: [ArticleHead], cutoff: Date, files: SegmentFiles? = nil) throws
    -> [String: Article]
  {
    let oldest = cutoff.timeIntervalSince1970
    let placed = heads.compactMap { head in head.place.map { (id: head.id, place: $0) } }
    let bySegment = Dictionary(grouping: placed, by: \.place.segment)
    guard !bySegment.isEmpty else { return [:] }
    return try reading { manifest in
      var found: [String: Article] = [:]
      for (provider, infos) in manifest.providers {
        for info in infos {
          guard let wanted = bySegment[info.number] else { continue }
          // The id each record number should hold.
          let ids = Dictionary(wanted.map { ($0.place.record, $0.id) }) { first, _ in first }
          let read = try aroundDamage(info, of: provider) {
            try SegmentReader(info, in: store, files: files).records(Set(ids.keys))
          }
          for (number, record) in read ?? []
          where ids[number] == record.article.id && record.seenAt.timeIntervalSince1970 >= oldest {
            found[record.article.id] = record.article
          }
        }
      }
      return found
    }
  }

  /// Adds to `found` the records of `provider` among `ids` not seen before `cutoff`, the newest
  /// segment's first; returns every id it holds (those seen before `cutoff` too).
  @discardableResult
  private func find(
    _ ids: Set<String>, of provider: String, in manifest: SegmentManifest, cutoff: Date,
    into found: inout [String: Article]
  ) throws -> Set<String> {
    let oldest = cutoff.timeIntervalSince1970
    var wanted = ids
    var done = Set<String>()
    for info in (manifest.providers[provider] ?? []).reversed() where !wanted.isEmpty {
      let read = try aroundDamage(info, of: provider) {
        () throws -> [(number: Int, record: StoredArticle)] in
        let segment = try SegmentReader(info, in: store)
        var numbers = Set<Int>()
        for (number, id) in try segment.ids().enumerated() where wanted.contains(id) {
          numbers.insert(number)
        }
        guard !numbers.isEmpty else { return [] }
        return try segment.records(numbers)
      }
      for (_, record) in read ?? [] {
        done.insert(record.article.id)
        wanted.remove(record.article.id)
        if record.seenAt.timeIntervalSince1970 >= oldest {
          found[record.article.id] = record.article
        }
      }
    }
    return done
  }

  // MARK: Writing

  /// Appends `articles` of `provider`, seen at `seenAt`, as a segment, compacting as the type
  /// says. The caller holds the lock (`transaction`).
  ///
  /// - Returns: the ids of those not stored yet, when `countingNew` (which reads every id of
  ///   the provider), else none.
  func append(
    _ articles: [Article], provider: String, seenAt: Date, countingNew: Bool,
    in files: EncryptedStore.Transaction
  ) throws -> Set<String> {
    try append([(articles, provider)], seenAt: seenAt, countingNew: countingNew, in: files)
  }

  /// Appends each of `batch` (a provider's articles) as ``append(_:provider:seenAt:countingNew:in:)``
  /// does one, under one commit: the manifest is read, changed for every provider and written
  /// once, so that a run saving many sources does not rewrite it once a source. Returns the ids
  /// that were new, when `countingNew`.
  func append(
    _ batch: [(articles: [Article], provider: String)], seenAt: Date, countingNew: Bool,
    in files: EncryptedStore.Transaction
  ) throws -> Set<String> {
    // A writer never reads around: a segment file missing under the lock is named as such.
    do {
      return try appending(batch, seenAt: seenAt, countingNew: countingNew, in: files)
    } catch let gone as SegmentFileMissing {
      throw StoreError.listedButMissing(
        path: store.url(for: gone.name).path, listedBy: "the store's segment manifest")
    }
  }

  private func appending(
    _ batch: [(articles: [Article], provider: String)], seenAt: Date, countingNew: Bool,
    in files: EncryptedStore.Transaction
  ) throws -> Set<String> {
    // The whole directory is listed by a process's first save only: listed on every commit, it
    // made a refresh of 1,000 feeds cost more an item than one of 100.
    let first = !store.checked.segmentsTidied.withLock { $0 }
    if first { try migrateLegacyFiles(in: files) }
    var manifest = try manifest()
    if first || mayHaveLeftovers(manifest) {
      removeLeftovers(of: manifest)
      store.checked.segmentsTidied.withLock { $0 = true }
    }
    do {
      var newIDs = Set<String>()
      var replaced: [SegmentInfo] = []
      let next = manifest.next
      let packs = manifest.packNumbers
      var fresh = FreshSegments()
      for (articles, provider) in batch {
        // A provider twice in a batch merges with its segment of this commit: in a pack first.
        if fresh.providers.contains(provider) { try pack(&fresh, into: &manifest, in: files) }
        newIDs.formUnion(
          try append(
            articles, provider: provider, seenAt: seenAt, countingNew: countingNew,
            to: &manifest, replacing: &replaced, fresh: &fresh, in: files))
        if fresh.bytes >= Self.packBytes { try pack(&fresh, into: &manifest, in: files) }
      }
      // Nothing to store (every list was empty): no commit.
      guard manifest.next != next || !replaced.isEmpty else { return newIDs }
      replaced += try finishPacking(fresh, into: &manifest, since: next, in: files)
      // A pack of this commit whose segments a later one of its providers replaced goes too.
      try commit(manifest, retiring: replaced, packsOf: packs.union(fresh.packs), in: files)
      return newIDs
    } catch {
      // Files this commit made may be left: the next one lists the directory for them.
      store.checked.segmentsTidied.withLock { $0 = false }
      throw error
    }
  }

  /// Commits `manifest`, whose writer replaced the segments `replaced` (or moved them into a
  /// pack) and may have emptied packs of `packs` (those listed before): their files are retired
  /// with it, and removed once it is written.
  func commit(
    _ manifest: SegmentManifest, retiring replaced: [SegmentInfo], packsOf packs: Set<Int>,
    in files: EncryptedStore.Transaction
  ) throws {
    var manifest = manifest
    let emptied = packs.subtracting(manifest.packNumbers).sorted()
    let retired = replaced.map(\.number) + emptied
    manifest.retired = retired.isEmpty ? nil : retired
    summarizeEarlier(&manifest)
    try commit(manifest, in: files)
    let names = replaced.flatMap(\.fileNames) + emptied.map(StoreLayout.segmentPack)
    for name in names { try? files.remove(name) }
  }

  /// One provider's part of a commit: its new segment written and listed in `manifest`, the
  /// segments it merged added to `replaced`.
  private func append(
    _ articles: [Article], provider: String, seenAt: Date, countingNew: Bool,
    to manifest: inout SegmentManifest, replacing replaced: inout [SegmentInfo],
    fresh: inout FreshSegments, in files: EncryptedStore.Transaction
  ) throws -> Set<String> {
    var infos = manifest.providers[provider] ?? []
    var newIDs = Set<String>()
    if countingNew {
      var known = Set<String>()
      for info in infos { known.formUnion(try SegmentReader(info, in: store).ids()) }
      newIDs = Set(articles.map(\.id)).subtracting(known)
    }
    var byID: [String: StoredArticle] = [:]
    for article in articles { byID[article.id] = StoredArticle(article: article, seenAt: seenAt) }
    guard !byID.isEmpty else { return newIDs }

    let cutoff = seenAt.addingTimeInterval(-retention.maximumAge.seconds)
    let limit = retention.maximumCount
    var pending = Self.sorted(Array(byID.values))
    let total = infos.reduce(pending.count) { $0 + $1.count }
    let expired = (infos.first?.oldestSeen ?? .infinity) < cutoff.timeIntervalSince1970 - 86_400
    if total > limit + limit / 4 || expired {
      pending = try records(of: infos, cutoff: cutoff) + pending
      pending = Self.merged(pending, cutoff: cutoff, limit: limit)
      replaced += infos
      infos = []
    } else {
      while let last = infos.last, last.count <= 2 * pending.count {
        pending = Self.merged(
          try records(of: [last], cutoff: cutoff) + pending, cutoff: cutoff, limit: nil)
        replaced.append(last)
        infos.removeLast()
      }
    }
    if !pending.isEmpty {
      let built = SegmentBuilder.build(number: manifest.next, records: pending)
      manifest.next += 1
      if built.info.chunks == 0 {
        // A small segment waits for the commit's pack.
        fresh.add(number: built.info.number, main: built.files[0].bytes, of: provider)
      } else {
        for file in built.files { try files.create(bytes: file.bytes, name: file.name) }
      }
      infos.append(built.info)
    }
    manifest.providers[provider] = infos.isEmpty ? nil : infos
    return newIDs
  }

  /// Drops every segment of `providers` (the sources of a removed account): the manifest without
  /// them is committed first, then their files are removed (and the packs they were in, whose
  /// other segments go into a new one). Returns how many records they held.
  func forget(_ providers: Set<String>, in files: EncryptedStore.Transaction) throws -> Int {
    var manifest = try manifest()
    let packs = manifest.packNumbers
    var dropped: [SegmentInfo] = []
    for provider in providers {
      dropped += manifest.providers.removeValue(forKey: provider) ?? []
    }
    guard !dropped.isEmpty else { return 0 }
    // Their records leave the disk with them: the packs they were in are written anew without.
    let moved = try finishPacking(
      FreshSegments(), into: &manifest, since: manifest.next,
      emptying: Set(dropped.compactMap(\.pack?.pack)), in: files)
    try commit(manifest, retiring: dropped + moved, packsOf: packs, in: files)
    return dropped.map(\.count).reduce(0, +)
  }

  /// Whether a save or compaction of this process that failed half way may have left files:
  /// the first number it would have used, or a retired segment, is there.
  func mayHaveLeftovers(_ manifest: SegmentManifest) -> Bool {
    ([manifest.next] + (manifest.retired ?? [])).contains {
      store.exists(StoreLayout.segment($0)) || store.exists(StoreLayout.segmentPack($0))
    }
  }

  /// Removes the segment files that are provably leftovers (``SegmentManifest/isLeftover(_:)``):
  /// what an interrupted save or compaction left. Only a writer holding the lock makes segment
  /// files, so none is being written now.
  func removeLeftovers(of manifest: SegmentManifest) {
    let isLeftover = manifest.leftovers()
    for name in store.names() where isLeftover(name) {
      unlink(store.url(for: name).path)
    }
  }

  /// The manifest the segment files describe, when the manifest itself is gone or damaged: each
  /// segment's main file (its own, or its record in a pack) holds its size and parts, its
  /// records their provider and when they were seen. Segments oldest first by number; the next
  /// number past every file. A segment that does not read is left out (its files are kept, and
  /// `news doctor` lists them); a segment found twice (moved into a pack by a commit whose
  /// manifest is lost) is read from the newer place.
  func rebuiltManifest() -> SegmentManifest {
    var manifest = SegmentManifest()
    let names = store.names()
    let numbers = Set(names.compactMap(SegmentInfo.number(inFileName:)))
    let packs = Set(names.compactMap(SegmentPack.number(inFileName:)))
    guard let highest = numbers.union(packs).max() else { return manifest }
    manifest.next = highest + 1
    var found: [Int: (provider: String, info: SegmentInfo)] = [:]
    for number in numbers.sorted() {
      guard let info = try? SegmentReader.describe(number: number, in: store),
        let provider = info.provider
      else { continue }
      found[number] = (provider, info.info)
    }
    for pack in packs.sorted() {
      for (number, place) in (try? SegmentPack.contents(of: pack, in: store)) ?? [] {
        guard let info = try? SegmentReader.describe(number: number, pack: place, in: store),
          let provider = info.provider
        else { continue }
        found[number] = (provider, info.info)
      }
    }
    for number in found.keys.sorted() {
      let (provider, info) = found[number]!
      manifest.providers[provider, default: []].append(info)
    }
    return manifest
  }

  /// Turns the article files of earlier versions (`articles-<provider>`, JSON) into segments,
  /// once, under the lock the caller holds: each becomes a segment listed in the manifest, then
  /// is removed. Nothing is lost if a crash comes in between: the file is read again next time
  /// and its records merge with themselves.
  func migrateLegacyFiles(in files: EncryptedStore.Transaction) throws {
    let legacy = store.names().filter { $0.hasPrefix(StoreLayout.legacyArticlesPrefix) }
    guard !legacy.isEmpty else { return }
    var manifest = try manifest()
    removeLeftovers(of: manifest)
    for name in legacy {
      let provider = String(name.dropFirst(StoreLayout.legacyArticlesPrefix.count))
      let records = try files.read([StoredArticle].self, name: name) ?? []
      guard !records.isEmpty else { continue }
      let built = SegmentBuilder.build(
        number: manifest.next,
        records: Self.merged(records, cutoff: .distantPast, limit: nil))
      manifest.next += 1
      for file in built.files { try files.create(bytes: file.bytes, name: file.name) }
      // Older than anything saved since: first in the provider's list.
      manifest.providers[provider, default: []].insert(built.info, at: 0)
    }
    try commit(manifest, in: files)
    for name in legacy { try files.remove(name) }
  }

  /// Whether files of the earlier format are waiting to be migrated.
  func hasLegacyFiles() -> Bool {
    // Only an earlier version writes them: once none is found, this process lists the
    // directory for them no more (`news serve` listed it for every page of articles).
    if store.checked.legacyAbsent.withLock({ $0 }) { return false }
    let found = store.containsName(withPrefix: StoreLayout.legacyArticlesPrefix)
    if !found { store.checked.legacyAbsent.withLock { $0 = true } }
    return found
  }

  /// The order of a segment's records: most recently seen first (what retention keeps), then
  /// newest published (so that each chunk covers a span of dates a limited search can skip),
  /// then by id. (What ``sorted(_:)`` sorts by, compared a record at a time.)
  static func precedes<Record: SegmentRecord>(_ lhs: Record, _ rhs: Record) -> Bool {
    if lhs.seenAt != rhs.seenAt { return lhs.seenAt > rhs.seenAt }
    let (left, right) = (lhs.published, rhs.published)
    if left != right { return left > right }
    return lhs.id > rhs.id
  }

  /// `records` in the order ``precedes(_:_:)`` gives, sorted by their keys (a record is large
  /// to move, and its dates are read once instead of at every comparison).
  static func sorted<Record: SegmentRecord>(_ records: [Record]) -> [Record] {
    let seen = records.map(\.seenAt.timeIntervalSinceReferenceDate)
    let published = records.map(\.published)
    let ids = records.map(\.id)
    let order = records.indices.sorted { left, right in
      if seen[left] != seen[right] { return seen[left] > seen[right] }
      if published[left] != published[right] { return published[left] > published[right] }
      return ids[left] > ids[right]
    }
    return order.map { records[$0] }
  }

  /// `records` (older first) with one record an id, the last one winning, those seen before
  /// `cutoff` left out, in the order of ``precedes(_:_:)``, at most `limit`. Not `ordered`: in
  /// any order when they are no more than `limit` (the newest `limit` otherwise).
  static func merged<Record: SegmentRecord>(
    _ records: [Record], cutoff: Date, limit: Int?, ordered: Bool = true
  ) -> [Record] {
    // Each id's last place, then the records at those places, in their order: a dictionary of
    // places, not of records (at 100,000 records, 3 MB instead of 25, and no copy of them when
    // every one is kept).
    var last: [String: Int] = [:]
    last.reserveCapacity(records.count)
    for (place, record) in records.enumerated() where record.seenAt >= cutoff {
      last[record.id] = place
    }
    var kept = records
    if last.count < records.count {
      var keeps = [Bool](repeating: false, count: records.count)
      for place in last.values { keeps[place] = true }
      kept = records.indices.compactMap { keeps[$0] ? records[$0] : nil }
    }
    if !ordered, kept.count <= limit ?? .max { return kept }
    let sorted = Self.sorted(kept)
    guard let limit, sorted.count > limit else { return sorted }
    return Array(sorted.prefix(limit))
  }
}
