import Foundation

extension ArticleSegments {
  /// Replaces every segment that no longer reads whole (a file missing, damaged or malformed)
  /// by one written from the chunks that still read (dropping it only when none does), removes
  /// the old files and the leftovers, and returns what was done, one line each. A manifest that does not open, or is gone, is rebuilt from the segment files (each
  /// says what it holds), so nothing that still reads is lost. The caller holds the lock and has
  /// checked the key (with a wrong key every segment would look damaged).
  func repair(in files: EncryptedStore.Transaction) throws -> [String] {
    var actions: [String] = []
    var manifest: SegmentManifest
    do {
      manifest = try self.manifest()
      if !store.names().contains(SegmentManifest.fileName), !manifest.providers.isEmpty {
        actions.append(Self.rebuilt(manifest, because: "it was missing"))
      } else if let stored = try SegmentManifest.stored(in: store),
        let head = rollback(of: stored, head: head())
      {
        actions.append(
          Self.rebuilt(
            manifest,
            because:
              "it was an older copy (generation \(stored.generation ?? 0), the store's last "
              + "commit \(head.generation))"))
      }
    } catch let error as StoreError where !error.isUnsupportedVersion {
      // A newer version's manifest is not damage: it is never replaced.
      manifest = rebuiltManifest()
      actions.append(Self.rebuilt(manifest, because: "it did not open (\(error.message))"))
      // A damaged file is never written over: it goes first.
      try files.remove(SegmentManifest.fileName)
    }
    // Segment files no manifest lists, and no interrupted save left (what a damaged manifest
    // listed, say): taken back where they say what they hold, in the order of their numbers
    // (a newer record of an id still wins), so that what they hold is not lost.
    let live = manifest.liveFileNames
    let isLeftover = manifest.leftovers()
    let unlisted = Set(store.names().compactMap(SegmentInfo.number(inFileName:))).filter {
      let name = StoreLayout.segment($0)
      return !live.contains(name) && !isLeftover(name)
    }
    var dropped: [Int] = []
    for number in unlisted.sorted() {
      guard let found = try? SegmentReader.describe(number: number, in: store),
        let provider = found.provider
      else {
        // Its main file is lost (damaged, or gone with the manifest): what its chunks hold is
        // written again as a segment of its own.
        let salvaged = SegmentReader.salvageChunks(number: number, in: store)
        guard let provider = salvaged.first?.article.provider else { continue }
        // Numbered past every segment file there is (none is written over).
        let highest = store.names().compactMap(SegmentInfo.number(inFileName:)).max() ?? number
        let built = SegmentBuilder.build(
          number: max(manifest.next, highest + 1), records: salvaged)
        manifest.next = built.info.number + 1
        for file in built.files { try files.create(bytes: file.bytes, name: file.name) }
        var infos = manifest.providers[provider] ?? []
        infos.insert(built.info, at: infos.firstIndex { $0.number > number } ?? infos.count)
        manifest.providers[provider] = infos
        dropped.append(number)
        actions.append(
          "rebuilt segment \(number) of \(provider) as segment \(built.info.number) from its "
            + "chunks, its main file lost: \(salvaged.count.counted("article")) kept")
        continue
      }
      var infos = manifest.providers[provider] ?? []
      infos.insert(found.info, at: infos.firstIndex { $0.number > number } ?? infos.count)
      manifest.providers[provider] = infos
      manifest.next = max(manifest.next, number + 1)
      actions.append(
        "took back segment \(number) of \(provider) (\(found.info.count.counted("article"))), which the "
          + "manifest did not list")
    }
    actions += takeBackUnlistedPacks(into: &manifest)
    let packs = manifest.packNumbers
    // A pack whose directory does not open is rewritten: its segments carried to a new one.
    var emptying = packs.filter { (try? SegmentPack.contents(of: $0, in: store)) == nil }
    for provider in manifest.providers.keys.sorted() {
      var kept: [SegmentInfo] = []
      for info in manifest.providers[provider]! {
        guard let problem = problem(with: info) else {
          kept.append(info)
          continue
        }
        dropped.append(info.number)
        // A pack holding a segment that does not read goes too: the others are carried out.
        if let place = info.pack { emptying.insert(place.pack) }
        // The smallest unit goes: the records of the chunks that still read are written again
        // as a segment of their own (ids and index are made from them), in the same place.
        let salvaged = salvage(info)
        guard !salvaged.isEmpty else {
          actions.append(
            "dropped segment \(info.number) of \(provider) (\(info.count.counted("article"))): \(problem)"
          )
          continue
        }
        let built = SegmentBuilder.build(number: manifest.next, records: salvaged)
        manifest.next += 1
        for file in built.files { try files.create(bytes: file.bytes, name: file.name) }
        kept.append(built.info)
        let lost = info.count - salvaged.count
        actions.append(
          "rebuilt segment \(info.number) of \(provider) as segment \(built.info.number) from the "
            + "parts that read: \(salvaged.count) of \(info.count.counted("article")) kept"
            + (lost > 0 ? ", \(lost) lost" : "") + " (\(problem))")
      }
      manifest.providers[provider] = kept.isEmpty ? nil : kept
    }
    if !emptying.isEmpty {
      dropped += try finishPacking(
        FreshSegments(), into: &manifest, since: manifest.next, emptying: emptying, in: files
      ).map(\.number)
      let left = emptying.subtracting(manifest.packNumbers).sorted()
      actions += left.map { "wrote the readable segments of pack \($0) into a new pack" }
    }
    guard !actions.isEmpty else {
      removeLeftovers(of: manifest)
      return []
    }
    // The dropped segments' files, and the packs no longer listed, are retired with this
    // commit, and so removed.
    let retired = dropped + packs.subtracting(manifest.packNumbers).sorted()
    manifest.retired = retired.isEmpty ? nil : retired
    try commit(manifest, in: files)
    removeLeftovers(of: manifest)
    return actions
  }

  /// Takes back the segments of packs no manifest lists (and no interrupted save left) that the
  /// manifest does not list: what a damaged manifest listed, say.
  private func takeBackUnlistedPacks(into manifest: inout SegmentManifest) -> [String] {
    var actions: [String] = []
    let live = manifest.liveFileNames
    let isLeftover = manifest.leftovers()
    var listed = Set(manifest.providers.values.joined().map(\.number))
    let unlisted = store.names().compactMap(SegmentPack.number(inFileName:)).filter {
      let name = StoreLayout.segmentPack($0)
      return !live.contains(name) && !isLeftover(name)
    }
    for pack in unlisted.sorted() {
      for (number, place) in (try? SegmentPack.contents(of: pack, in: store)) ?? []
      where !listed.contains(number) {
        guard let found = try? SegmentReader.describe(number: number, pack: place, in: store),
          let provider = found.provider
        else { continue }
        var infos = manifest.providers[provider] ?? []
        infos.insert(found.info, at: infos.firstIndex { $0.number > number } ?? infos.count)
        manifest.providers[provider] = infos
        manifest.next = max(manifest.next, number + 1, pack + 1)
        listed.insert(number)
        actions.append(
          "took back segment \(number) of \(provider) (\(found.info.count.counted("article"))) from pack "
            + "\(pack), which the manifest did not list")
      }
    }
    return actions
  }

  private static func rebuilt(_ manifest: SegmentManifest, because reason: String) -> String {
    let segments = manifest.providers.values.reduce(0) { $0 + $1.count }
    let articles = manifest.providers.values.joined().reduce(0) { $0 + $1.count }
    return "rebuilt the segment manifest from the segment files, \(reason): \(segments) "
      + "segment\(segments == 1 ? "" : "s") of \(manifest.providers.count) "
      + "provider\(manifest.providers.count == 1 ? "" : "s"), \(articles) articles kept"
  }

  /// The records of `info` that still read: those of every chunk that opens (read without the
  /// main file when it does not).
  private func salvage(_ info: SegmentInfo) -> [StoredArticle] {
    guard let segment = try? SegmentReader(info, in: store) else {
      return info.chunks > 0 ? SegmentReader.salvageChunks(number: info.number, in: store) : []
    }
    guard info.chunks > 0 else { return (try? segment.records().map(\.record)) ?? [] }
    var records: [StoredArticle] = []
    let size = SegmentBuilder.chunkSize
    for chunk in 0..<info.chunks {
      let numbers = Set((chunk * size)..<min((chunk + 1) * size, info.count))
      if let read = try? segment.records(numbers) { records += read.map(\.record) }
    }
    return records
  }

  /// Why the segment does not read whole, `nil` when it does: every file opens and decodes.
  private func problem(with info: SegmentInfo) -> String? {
    do {
      let segment = try SegmentReader(info, in: store)
      _ = try segment.ids()
      _ = try segment.records()
      _ = try segment.records(holding: Array(0..<segment.wordCount))
      return nil
    } catch let missing as SegmentFileMissing {
      return "\(store.url(for: missing.name).path) is missing"
    } catch {
      return (error as? any NewsError)?.message ?? String(describing: error)
    }
  }
}
