import Foundation

/// The read marks: ``ReadMarks/shardCount`` files `read-00` … `read-ff` (the marks whose id hash
/// starts with that byte) and `read-log`, the changes since (``ReadMarksLog``). A list opens the
/// files its ids hash to; marking a few articles appends to the log; every
/// ``ReadMarksLog/compactAfter`` changes the log is merged into the files it changes. Stores of
/// earlier versions keep every mark in one file, `read`, read whole until the first merge
/// replaces it.
extension ArticleStore {
  /// Every read mark. A damaged file is an error naming it.
  public func readMarks() throws -> ReadMarks {
    var marks = try loadReadMarks(shards: nil, read: { try store.readBytes($0) }).marks
    marks.prune(now: now(), lifetime: ReadMarks.lifetime(for: retention))
    return marks
  }

  /// The read marks that say whether each of `ids` is read (and possibly others): only the files
  /// those ids hash to are read, so a list of 20 costs the same with 100,000 marks as with none.
  public func readMarks(of ids: some Sequence<String>) throws -> ReadMarks {
    var marks = try loadReadMarks(
      shards: ReadMarks.shards(of: ids), read: { try store.readBytes($0) }
    ).marks
    marks.prune(now: now(), lifetime: ReadMarks.lifetime(for: retention))
    return marks
  }

  /// The read marks a query asks of its articles, read a file at a time as they are asked
  /// (``ReadMarkShards``): a search the word index narrows to 31 articles reads the few files
  /// their ids hash to, not every mark.
  ///
  /// For a query asking only for unread articles (`unreadOnly`), the segments read through
  /// (``FullyReadSegments``) are read first, before any mark: it passes them over.
  public func readMarkShards(unreadOnly: Bool = true) -> ReadMarkShards {
    let lifetime = ReadMarks.lifetime(for: retention)
    return ReadMarkShards(
      fullyRead: unreadOnly ? fullyReadSegments() : nil, now: now().timeIntervalSince1970,
      lifetime: lifetime
    ) { shard in
      var marks = try loadReadMarks(shards: [shard], read: { try store.readBytes($0) }).marks
      marks.prune(now: now(), lifetime: ReadMarks.lifetime(for: retention))
      for path in marks.unreadableFiles { store.sayDamaged(ReadMarks.damage(path)) }
      return marks
    }
  }

  /// Marks `ids` read; returns how many were not read yet.
  ///
  /// Without `counting` (`show`, `open`, `read 3`: nothing says how many) the marks already
  /// stored are not even read: the changes are appended to `read-log` as they are, so marking
  /// an article costs the same with 100,000 marks as with none. The return value is then 0.
  @discardableResult
  public func markRead(_ ids: [String], counting: Bool = true) throws -> Int {
    let stamp = now().timeIntervalSince1970
    guard counting else {
      let time = ReadMarks.time(stamp)
      try appendReadChanges(ids.map { (ReadMarks.key($0), time) })
      return 0
    }
    return try updateReadMarks(of: ids) { $0.mark(ids, stamp: stamp) }
  }

  /// Marks `ids` unread again; returns how many were read (0 without `counting`, as
  /// ``markRead(_:counting:)``).
  @discardableResult
  public func markUnread(_ ids: [String], counting: Bool = true) throws -> Int {
    guard counting else {
      try appendReadChanges(ids.map { (ReadMarks.key($0), ReadMarks.removed) })
      return 0
    }
    return try updateReadMarks(of: ids) { $0.unmark(ids) }
  }

  /// Stamps again the marks of read articles that are still listed (so they outlive their
  /// articles for as long as a source lists them); writes only when a mark is a day old, so a
  /// list usually writes nothing. `marks` are those the list was shown with.
  public func noteListed(_ ids: [String], marks: ReadMarks) throws {
    let stamp = now().timeIntervalSince1970
    guard marks.needsRestamp(ids, stamp: stamp) else { return }
    _ = try updateReadMarks(of: ids) { $0.restamp(ids, stamp: stamp) }
  }

  // MARK: Files

  /// What ``loadReadMarks(shards:read:)`` read: the marks with the log applied, the log, and
  /// each shard read as its file holds it.
  private struct LoadedReadMarks {
    var marks: ReadMarks
    var log: ReadMarksLog
    var shards: [Int: ReadMarks]
    /// Whether the marks came from the single `read` file of earlier versions.
    var earlierLayout: Bool
    /// The shards whose file is damaged (their marks count as none; never written over here).
    var damagedShards: Set<Int> = []
    /// Whether `read-log` is damaged (its changes count as none).
    var damagedLog = false
  }

  /// The marks of `shards` (every one when `nil`) with the log applied, read by `read`. A
  /// damaged file costs only its own marks: it is left out and named in
  /// ``ReadMarks/unreadableFiles``.
  private func loadReadMarks(shards: Set<Int>?, read: (String) throws -> [UInt8]?) throws
    -> LoadedReadMarks
  {
    var unreadable: [String] = []
    /// The file's marks, `nil` when it is absent; damage is noted and read as absent.
    func load<T>(_ name: String, _ decode: ([UInt8]) throws -> T) throws -> (T?, Bool) {
      do {
        guard let bytes = try read(name) else { return (nil, false) }
        return (try decode(bytes), false)
      } catch let error as StoreError where error.isDamage {
        unreadable.append(store.url(for: name).path)
        return (nil, true)
      }
    }
    let (log, damagedLog) = try load(ReadMarksLog.fileName, decodeLog)
    var loaded = LoadedReadMarks(
      marks: ReadMarks(), log: log ?? ReadMarksLog(), shards: [:], earlierLayout: false)
    loaded.damagedLog = damagedLog
    let (single, _) = try load(StoreLayout.readMarks) {
      try decode($0, name: StoreLayout.readMarks, shard: nil)
    }
    if let single {
      loaded.marks = single
      loaded.earlierLayout = true
    } else {
      // (A damaged `read` of an earlier version: the shards hold what was marked since.)
      var parts: [ReadMarks] = []
      for index in shards?.sorted() ?? Array(0..<ReadMarks.shardCount) {
        let name = StoreLayout.readMarksShard(index)
        let (part, damaged) = try load(name) { try decode($0, name: name, shard: index) }
        if damaged { loaded.damagedShards.insert(index) }
        guard let part else { continue }
        loaded.shards[index] = part
        parts.append(part)
      }
      loaded.marks = ReadMarks(joining: parts)
    }
    loaded.marks = loaded.marks.applying(loaded.log.changes)
    loaded.marks.unreadableFiles = unreadable
    return loaded
  }

  /// The log's changes, or ``StoreError/unreadableContent(path:detail:)`` naming it.
  private func decodeLog(_ bytes: [UInt8]) throws -> ReadMarksLog {
    do {
      return try ReadMarksLog(decoding: bytes)
    } catch {
      throw StoreError.unreadableContent(
        path: store.url(for: ReadMarksLog.fileName).path, detail: error.detail)
    }
  }

  private func decode(_ bytes: [UInt8], name: String, shard: Int?) throws -> ReadMarks {
    let path = store.url(for: name).path
    let marks: ReadMarks
    do {
      marks = try ReadMarks(decoding: bytes)
    } catch {
      throw StoreError.unreadableContent(path: path, detail: error.detail)
    }
    if let shard, !marks.isEmpty, marks.shard(shard).count != marks.count {
      throw StoreError.unreadableContent(path: path, detail: "read marks of another file")
    }
    return marks
  }

  /// Changes the marks of `ids` under the lock (reading only the files they hash to) and
  /// records what changed (``recordReadChanges(_:log:files:)``).
  private func updateReadMarks<T>(of ids: [String], _ change: (inout ReadMarks) -> T) throws -> T {
    try store.transaction { files in
      let before = try loadReadMarks(
        shards: ReadMarks.shards(of: ids), read: { try files.readBytes($0) })
      var marks = before.marks
      let result = change(&marks)
      let changes = before.marks.changes(to: marks)
      guard !changes.isEmpty else { return result }
      // Marks kept in one file by an earlier version are split with the first change; a
      // damaged log is never written over (repair removes it), so changes go to the shards.
      try recordReadChanges(
        changes, log: before.log, files: files, mergeNow: before.earlierLayout || before.damagedLog)
      return result
    }
  }

  /// Appends `changes` to `read-log` without reading the marks.
  private func appendReadChanges(_ changes: [(key: UInt64, stamp: UInt32)]) throws {
    guard !changes.isEmpty else { return }
    try store.transaction { files in
      var log = ReadMarksLog()
      var damaged = false
      do {
        if let bytes = try files.readBytes(ReadMarksLog.fileName) { log = try decodeLog(bytes) }
      } catch let error as StoreError where error.isDamage {
        // Never written over (it is the evidence, and repair's to remove): the changes go
        // around it, into the files of marks.
        damaged = true
      }
      try recordReadChanges(changes, log: log, files: files, mergeNow: damaged)
    }
  }

  /// Appends `changes` to `log`; once it holds ``readMarksMergeAfter`` changes (or with
  /// `mergeNow`), merges them into the marks instead: every shard is read, pruned, and the
  /// files that changed written (an emptied one removed), then the log is removed. Each change
  /// is absolute, so a crash before the log is removed loses nothing: it is applied again.
  private func recordReadChanges(
    _ changes: [(key: UInt64, stamp: UInt32)], log: ReadMarksLog,
    files: EncryptedStore.Transaction, mergeNow: Bool
  ) throws {
    // A mark removed: no segment is known read through any more (first, so that a crash
    // before the marks are written leaves nothing wrong behind).
    if changes.contains(where: { $0.stamp == ReadMarks.removed }) { try forgetFullyRead(in: files) }
    guard mergeNow || log.changes.count + changes.count > readMarksMergeAfter else {
      var longer = log
      longer.changes += changes
      try files.write(bytes: longer.encoded, name: ReadMarksLog.fileName)
      return
    }
    let before = try loadReadMarks(shards: nil, read: { try files.readBytes($0) })
    var marks = before.marks.applying(changes)
    marks.prune(now: now(), lifetime: ReadMarks.lifetime(for: retention))
    var changed: [(name: String, bytes: [UInt8]?)] = []
    // A damaged shard is never written over (repair replaces it): its changes stay in the log.
    let damaged = before.damagedShards
    for index in 0..<ReadMarks.shardCount where !damaged.contains(index) {
      let part = marks.shard(index)
      guard before.earlierLayout || part != before.shards[index] ?? ReadMarks() else { continue }
      changed.append((StoreLayout.readMarksShard(index), part.isEmpty ? nil : part.encoded))
    }
    let single: [(name: String, bytes: [UInt8]?)] =
      before.earlierLayout ? [(StoreLayout.readMarks, nil)] : []
    try files.replace(changed + single)
    var kept = ReadMarksLog()
    kept.changes = (before.log.changes + changes).filter {
      damaged.contains(ReadMarks.shard(of: $0.key))
    }
    if before.damagedLog {
      // The damaged log stays as it is; a change that has no file left to go to fails, as a
      // write to a damaged file does.
      guard kept.changes.isEmpty else {
        throw StoreError.unreadableContent(
          path: store.url(for: ReadMarksLog.fileName).path, detail: "a damaged log of read marks")
      }
    } else if kept.changes.isEmpty {
      try files.remove(ReadMarksLog.fileName)
    } else {
      try files.write(bytes: kept.encoded, name: ReadMarksLog.fileName)
    }
  }
}
