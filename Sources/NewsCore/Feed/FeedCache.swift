import Foundation
import Synchronization

/// The feed cache: each source's last good answer (``FeedCacheEntry``), the entries of the
/// sources that answered together in one file.
///
/// A commit writes its entries as a new bundle (`feeds-<n>`, a ``SealedBundle``: each entry
/// sealed alone, so that one is read and decrypted without the others, and last the bundle's
/// directory: each entry's source, place and summary), then the index (`feeds`: the live
/// bundles and where their directories are, a few bytes a bundle), which is the commit point,
/// then removes the bundles no entry is in any more. A commit carries along the entries of the
/// newest small bundles while they hold at most twice what it holds (so that commits of one
/// source make few bundles), and those of any bundle left at most half live (so that the cache
/// weighs at most about twice its entries). A refresh of 1,000 sources writes one file for
/// many sources, not one a source.
///
/// The index says only what the bundles hold: when it is missing or does not open, it is
/// rebuilt from them (the newest bundle holding a source wins). An entry written by an earlier
/// version (`feed-<source>`, a file a source) is read as before, and folded into a bundle by the
/// first commit that finds no index.
final class FeedCache: Sendable {
  let store: EncryptedStore
  /// The index as this process last read or wrote it, and which file it was then (a commit
  /// reads it again only when another process replaced it since).
  private let held = Mutex<
    (index: FeedCacheIndex, rebuilt: Bool, file: StoreDirectory.FileIdentity?)?
  >(nil)
  /// The directories of the bundles read so far, by number (a bundle never changes).
  private let directories = Mutex<[Int: [(source: String, entry: FeedCacheIndex.Entry)]]>([:])
  /// Whether a commit of this process looked for bundles no index lists (what a crash between
  /// a bundle and its index leaves): once is enough, a crash ends the process.
  private let tidied = Mutex(false)
  /// The bundles entries were read from, held open (a bundle never changes); let go at each
  /// commit, which may remove some.
  private let openBundles = OpenFiles()
  /// The most entries a commit merges the newest bundles up to: past it, bundles are left as
  /// they are (a refresh's commits, each about this size, rewrite nothing of the others').
  static let mergedEntries = 64
  /// The most bytes of entries of the earlier layout folded into one bundle.
  static let foldedBundleBytes = 8 << 20

  init(store: EncryptedStore) {
    self.store = store
  }

  /// The bytes of `source`'s entry, as ``FeedCacheEntry/decode(_:)`` reads them; `nil` when
  /// there is none.
  func entry(of source: String) throws -> [UInt8]? {
    // A bundle gone since the index was read (another process's commit): read it again.
    for reloading in [false, true] {
      guard let found = try index(reloading: reloading).entries[source] else {
        return try store.readBytes(StoreLayout.feedCache(source))
      }
      let name = StoreLayout.feedBundle(found.bundle)
      guard let record = try store.readRecord(of: name, at: found.place, through: openBundles)
      else { continue }
      do throws(BinaryReader.Malformed) {
        let parsed = try FeedCacheIndex.parse(record: record)
        guard parsed.source == source else {
          throw BinaryReader.Malformed(detail: "the index's place holds another source")
        }
        return parsed.entry
      } catch {
        throw StoreError.unreadableContent(path: store.url(for: name).path, detail: error.detail)
      }
    }
    return nil
  }

  /// The bytes of `source`'s entry, its items left out where the index has it (what
  /// ``FeedCacheEntry/decodeSummary(_:)`` reads); `nil` when there is none.
  func summary(of source: String) throws -> [UInt8]? {
    try counted(source)?.summary
  }

  /// `source`'s summary and how many items its entry holds (`nil` when that is not known: a
  /// directory written before counts, a cache file of the earlier layout).
  func counted(_ source: String) throws -> (summary: [UInt8], itemCount: Int?)? {
    if let found = try index(reloading: false).entries[source] {
      return (found.summary, found.itemCount)
    }
    return try store.readBytes(StoreLayout.feedCache(source)).map { ($0, nil) }
  }

  /// An entry to write: its source, its summary, and its record in a bundle, made only when
  /// the bundle is written (a source waiting for its commit holds its packed items alone).
  struct Pending: Sendable {
    var source: String
    /// The entry without its items (``FeedCacheIndex/Entry/summary``).
    var summary: [UInt8]
    /// How many items the entry holds, when known (``FeedCacheIndex/Entry/itemCount``).
    var itemCount: Int?
    var record: @Sendable () throws -> [UInt8]

    /// `source`'s record as it is.
    init(
      source: String, summary: [UInt8], itemCount: Int?,
      record: @escaping @Sendable () throws -> [UInt8]
    ) {
      self.source = source
      self.summary = summary
      self.itemCount = itemCount
      self.record = record
    }

    /// `source`'s entry as the bytes `entry` (its items not counted: a conversion, or a keep
    /// that failed before, which a sync reads in full).
    init(source: String, bytes entry: [UInt8]) throws {
      self.source = source
      summary = try FeedCache.summaryBytes(entry)
      record = { FeedCacheIndex.record(source, entry) }
    }

    /// `source`'s `entry`, its items those of `pack` (or its own).
    init(source: String, entry: FeedCacheEntry, pack: FeedItemPack?) throws {
      self.source = source
      var header = entry
      header.items = []
      summary = try header.encoded()
      itemCount = pack?.count ?? entry.items.count
      record = { try entry.record(of: source, with: pack) }
    }
  }

  /// Writes `entries` (a source and its entry's bytes; the last of a source wins) as one
  /// bundle, under the cache's lock.
  func commit(_ entries: [(source: String, entry: [UInt8])]) throws {
    try commit(entries.map { try Pending(source: $0.source, bytes: $0.entry) })
  }

  /// Writes `pending` (the last of a source wins) as one bundle, under the cache's lock.
  func commit(_ pending: [Pending]) throws {
    guard !pending.isEmpty else { return }
    try store.transaction { files in
      var (index, rebuilt, _) = try currentIndex()
      // Let go here, so that the commit changes its tables in place rather than copying them.
      held.withLock { $0 = nil }
      var removable: [String] = []
      if rebuilt {
        removable += try fold(into: &index, leaving: Set(pending.map(\.source)), files: files)
      }
      var writing: [Pending] = []
      var fresh = Set<String>()
      for entry in pending.reversed() where fresh.insert(entry.source).inserted {
        writing.append(entry)
      }
      writing += carried(index, leaving: fresh)
      try writeBundle(writing, into: &index, files: files)
      files.syncDirectory()
      for number in index.bundles.keys
      where index.live[number] == nil && !index.unreadable.contains(number) {
        index.bundles[number] = nil
        removable.append(StoreLayout.feedBundle(number))
      }
      try writeIndex(index, replacingDamaged: rebuilt, files: files)
      held.withLock { $0 = (index, false, store.files.identity(of: StoreLayout.feedIndex)) }
      if !tidied.withLock({ $0 }) {
        removable += store.names().filter { name in
          StoreLayout.feedBundleNumber(name).map { index.bundles[$0] == nil } ?? false
        }
        tidied.withLock { $0 = true }
      }
      openBundles.closeAll()
      Self.remove(removable, files: files)
    }
  }

  /// Writes `writing` as the next bundle, its directory last, and lists it in `index`.
  private func writeBundle(
    _ writing: [Pending], into index: inout FeedCacheIndex, files: EncryptedStore.Transaction
  ) throws {
    let number = index.next
    index.next += 1
    let places = try files.createBundle(
      count: writing.count + 1, name: StoreLayout.feedBundle(number)
    ) { position, before in
      guard position == writing.count else { return try writing[position].record() }
      return FeedCacheIndex.directory(
        zip(writing, before).map { ($0.source, $1, $0.summary, $0.itemCount) })
    }
    index.bundles[number] = places.last
    var listed: [(source: String, entry: FeedCacheIndex.Entry)] = []
    for (entry, place) in zip(writing, places) {
      let stored = FeedCacheIndex.Entry(
        bundle: number, place: place, summary: entry.summary, itemCount: entry.itemCount)
      index.assign(stored, to: entry.source)
      listed.append((entry.source, stored))
    }
    directories.withLock { $0[number] = listed }
  }

  /// The index, as held or read again.
  private func index(reloading: Bool) throws -> FeedCacheIndex {
    if !reloading, let held = held.withLock({ $0 }) { return held.index }
    return try currentIndex().index
  }

  /// The index as it is on disk now: the one held when the file is still the one it was read
  /// from or written as, else read again (and held).
  private func currentIndex() throws -> (
    index: FeedCacheIndex, rebuilt: Bool, file: StoreDirectory.FileIdentity?
  ) {
    // Told before the file is read: a file replaced in between is read again next time. (No
    // file, held as none: what a missing index was rebuilt from is there until a commit.)
    let file = store.files.identity(of: StoreLayout.feedIndex)
    if let held = held.withLock({ $0 }), held.file == file {
      return (held.index, held.rebuilt, file)
    }
    let (index, rebuilt) = try readIndex()
    held.withLock { $0 = (index, rebuilt, file) }
    return (index, rebuilt, file)
  }

  /// The index on disk or, when it is missing or does not open (`rebuilt`), rebuilt from the
  /// bundles; a damaged one is said once, as it is replaced by the next commit (it holds
  /// nothing the bundles do not).
  private func readIndex() throws -> (index: FeedCacheIndex, rebuilt: Bool) {
    let name = StoreLayout.feedIndex
    let path = store.url(for: name).path
    do {
      // A bundle removed between the index and its directory (another commit): read again.
      for _ in 0..<3 {
        guard let bytes = try store.readBytes(name) else { return (rebuiltIndex(), true) }
        var index: FeedCacheIndex
        do throws(BinaryReader.Malformed) {
          index = try FeedCacheIndex.decode(bytes)
        } catch {
          throw StoreError.unreadableContent(path: path, detail: error.detail)
        }
        if load(&index) { return (index, false) }
      }
      return (rebuiltIndex(), true)
    } catch let error as StoreError {
      switch error {
      case .undecryptable, .notAStoreFile, .unreadableContent:
        store.sayDamaged(
          at: path, leftOut: "nothing: it is rebuilt from the feed cache's bundles",
          advice: nil)
        return (rebuiltIndex(), true)
      default:
        throw error
      }
    }
  }

  /// Fills the entries of `index` from its bundles' directories (each read once a process),
  /// the newest bundle holding a source winning; `false` when a bundle is gone (removed by a
  /// commit since the index was read). A directory that does not open is said once, and its
  /// bundle kept as it is (never removed by a commit) until a repair removes it: its sources
  /// are fetched again meanwhile.
  private func load(_ index: inout FeedCacheIndex) -> Bool {
    var lists: [[(source: String, entry: FeedCacheIndex.Entry)]] = []
    for (number, place) in index.bundles.sorted(by: { $0.key < $1.key }) {
      var listed = directories.withLock { $0[number] }
      if listed == nil {
        let name = StoreLayout.feedBundle(number)
        do {
          guard let bytes = try store.readRecord(of: name, at: place) else { return false }
          do throws(BinaryReader.Malformed) {
            listed = try FeedCacheIndex.entries(inDirectory: bytes, of: number)
          } catch {
            throw StoreError.unreadableContent(
              path: store.url(for: name).path, detail: error.detail)
          }
          directories.withLock { $0[number] = listed }
        } catch {
          index.unreadable.insert(number)
          store.sayDamaged(
            at: store.url(for: name).path,
            leftOut: "the feed cache entries it holds (their sources are fetched again)",
            advice: .repairStore(does: "removes it"))
          continue
        }
      }
      lists.append(listed ?? [])
    }
    // Room for every entry at once: 10,000 entries grew the table a dozen times.
    index.reserve(lists.reduce(0) { $0 + $1.count })
    for listed in lists {
      for (source, entry) in listed { index.assign(entry, to: source) }
    }
    return true
  }

  /// The index the bundles make, the newest bundle holding a source winning (a bundle that
  /// does not open is left out: its sources are fetched again).
  private func rebuiltIndex() -> FeedCacheIndex {
    var index = FeedCacheIndex()
    for number in store.names().compactMap(StoreLayout.feedBundleNumber).sorted() {
      index.next = number + 1
      do {
        guard let records = try store.readBundle(StoreLayout.feedBundle(number)),
          let directory = records.last
        else { continue }
        let listed = try FeedCacheIndex.entries(inDirectory: directory.record, of: number)
        index.bundles[number] = directory.place
        for (source, entry) in listed { index.assign(entry, to: source) }
        directories.withLock { $0[number] = listed }
      } catch {
        continue
      }
    }
    return index
  }

  /// Folds the entries of the earlier layout (`feed-<source>`) into bundles of their own, but
  /// for the sources `leaving` (written by this commit) and those the bundles hold already,
  /// and answers the files to remove once the index is written. An entry that does not open is
  /// left where it is (its source reports it until it is repaired).
  private func fold(
    into index: inout FeedCacheIndex, leaving fresh: Set<String>,
    files: EncryptedStore.Transaction
  ) throws -> [String] {
    let prefix = StoreLayout.feedCachePrefix
    var removable: [String] = []
    var pending: [Pending] = []
    var pendingBytes = 0
    func flush() throws {
      guard !pending.isEmpty else { return }
      try writeBundle(pending, into: &index, files: files)
      pending = []
      pendingBytes = 0
    }
    for name in store.names().sorted() where name.hasPrefix(prefix) {
      let source = String(name.dropFirst(prefix.count))
      if fresh.contains(source) || index.entries[source] != nil {
        removable.append(name)
        continue
      }
      do {
        guard let bytes = try store.readBytes(name) else { continue }
        pending.append(try Pending(source: source, bytes: bytes))
        pendingBytes += bytes.count
        removable.append(name)
      } catch {
        continue
      }
      if pendingBytes >= Self.foldedBundleBytes { try flush() }
    }
    try flush()
    files.syncDirectory()
    return removable
  }

  /// The live entries this commit writes again, but for `fresh`'s (which it writes anew): those
  /// of the newest bundles while each holds at most twice what the new one holds so far, up to
  /// ``mergedEntries`` in all (as segments merge: commits of a source each make a logarithmic
  /// number of small bundles, each entry rewritten a logarithmic number of times, never more
  /// than about ``mergedEntries`` a commit), and those of any bundle left at most half live.
  /// One that does not read stays where it is (and its bundle with it).
  private func carried(_ index: FeedCacheIndex, leaving fresh: Set<String>) -> [Pending] {
    // What stays of a bundle: its directory's entries still its sources' and not written anew.
    func staying(_ number: Int) -> [(source: String, entry: FeedCacheIndex.Entry)] {
      (directories.withLock { $0[number] } ?? []).filter { source, entry in
        !fresh.contains(source) && index.entries[source] == entry
      }
    }
    var merged: [Int: [(source: String, entry: FeedCacheIndex.Entry)]] = [:]
    var size = fresh.count
    for number in index.bundles.keys.sorted(by: >) where index.live[number] != nil {
      let entries = staying(number)
      guard entries.count <= 2 * size, size + entries.count <= Self.mergedEntries else { break }
      merged[number] = entries
      size += entries.count
    }
    for (number, place) in index.bundles where merged[number] == nil {
      // Its records but its directory.
      if let count = index.live[number], count * 2 <= place.count - 1 {
        merged[number] = staying(number)
      }
    }
    var carried: [Pending] = []
    for (number, entries) in merged.sorted(by: { $0.key < $1.key }) {
      for (source, entry) in entries {
        do {
          guard
            let record = try store.readRecord(
              of: StoreLayout.feedBundle(number), at: entry.place)
          else { continue }
          carried.append(
            Pending(source: source, summary: entry.summary, itemCount: entry.itemCount) { record })
        } catch {
          continue
        }
      }
    }
    return carried
  }

  /// Writes `index`, removing a damaged one first when it was `replacingDamaged` (it said
  /// nothing the bundles do not).
  private func writeIndex(
    _ index: FeedCacheIndex, replacingDamaged: Bool, files: EncryptedStore.Transaction
  ) throws {
    let bytes: [UInt8]
    do throws(BinaryReader.Malformed) {
      bytes = try index.encoded()
    } catch {
      throw StoreError.unreadableContent(
        path: store.url(for: StoreLayout.feedIndex).path, detail: error.detail)
    }
    if replacingDamaged { try files.remove(StoreLayout.feedIndex) }
    try files.write(bytes: bytes, name: StoreLayout.feedIndex)
  }

  /// Removes `names`, files no commit needs any more: one that stays is removed by the next.
  private static func remove(_ names: [String], files: EncryptedStore.Transaction) {
    for name in names {
      do { try files.remove(name) } catch { continue }
    }
    files.syncDirectory()
  }

  /// An entry's bytes without its items, in the current format (the index's summary).
  static func summaryBytes(_ entry: [UInt8]) throws -> [UInt8] {
    try FeedCacheEntry.decodeSummary(entry).encoded()
  }
}
