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

  /// Marks `ids` read; returns how many were not read yet.
  ///
  /// Without `counting` (`show`, `open`, `read 3`: nothing says how many) the marks already
  /// stored are not even read: the changes are appended to `read-log` as they are, so marking
  /// an article costs the same with 100,000 marks as with none. The return value is then 0.
  @discardableResult
  public func markRead(_ ids: [String], counting: Bool = true) throws -> Int {
    try outbox?.note(ids, .read)
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
    try outbox?.note(ids, .unread)
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
  }

  /// The marks of `shards` (every one when `nil`) with the log applied, read by `read`.
  private func loadReadMarks(shards: Set<Int>?, read: (String) throws -> [UInt8]?) throws
    -> LoadedReadMarks
  {
    let log = try read(ReadMarksLog.fileName).map { bytes throws -> ReadMarksLog in
      do {
        return try ReadMarksLog(decoding: bytes)
      } catch let error as BinaryReader.Malformed {
        throw StoreError.unreadableContent(
          path: store.url(for: ReadMarksLog.fileName).path, detail: error.detail)
      }
    }
    var loaded = LoadedReadMarks(
      marks: ReadMarks(), log: log ?? ReadMarksLog(), shards: [:], earlierLayout: false)
    if let bytes = try read(StoreLayout.readMarks) {
      loaded.marks = try decode(bytes, name: StoreLayout.readMarks, shard: nil)
      loaded.earlierLayout = true
    } else {
      var parts: [ReadMarks] = []
      for index in shards?.sorted() ?? Array(0..<ReadMarks.shardCount) {
        let name = StoreLayout.readMarksShard(index)
        guard let bytes = try read(name) else { continue }
        let part = try decode(bytes, name: name, shard: index)
        loaded.shards[index] = part
        parts.append(part)
      }
      loaded.marks = ReadMarks(joining: parts)
    }
    loaded.marks = loaded.marks.applying(loaded.log.changes)
    return loaded
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
      // Marks kept in one file by an earlier version are split with the first change.
      try recordReadChanges(
        changes, log: before.log, files: files, mergeNow: before.earlierLayout)
      return result
    }
  }

  /// Appends `changes` to `read-log` without reading the marks.
  private func appendReadChanges(_ changes: [(key: UInt64, stamp: UInt32)]) throws {
    guard !changes.isEmpty else { return }
    let path = store.url(for: ReadMarksLog.fileName).path
    try store.transaction { files in
      let log = try files.readBytes(ReadMarksLog.fileName).map { bytes throws -> ReadMarksLog in
        do {
          return try ReadMarksLog(decoding: bytes)
        } catch let error as BinaryReader.Malformed {
          throw StoreError.unreadableContent(path: path, detail: error.detail)
        }
      }
      try recordReadChanges(changes, log: log ?? ReadMarksLog(), files: files, mergeNow: false)
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
    for index in 0..<ReadMarks.shardCount {
      let part = marks.shard(index)
      guard before.earlierLayout || part != before.shards[index] ?? ReadMarks() else { continue }
      changed.append((StoreLayout.readMarksShard(index), part.isEmpty ? nil : part.encoded))
    }
    try files.replace(changed + [(StoreLayout.readMarks, nil)])
    try files.remove(ReadMarksLog.fileName)
  }
}
