import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `news doctor --repair`: makes a damaged store usable again, losing only what cannot be read
/// or is made again by the next fetch.
///
/// Article segments that no longer read whole are dropped (their articles are lost; listings and
/// bookmarks keep theirs); damaged listings and feed cache entries are removed (the next fetch
/// writes them again), and a removed listings index is rebuilt from the listing files that read,
/// so none is left unreachable. A damaged file of read marks is removed (only its own marks are
/// lost: the others stay), and so is a damaged account file (the accounts, or one account's
/// state, items or queue: what each costs is said). A damaged key check is written again when
/// the other files prove the key. A damaged side file (full texts, enclosures, first-seen times,
/// downloads) is removed, saying what it held. Bookmarks are never touched: a damaged file of them stays
/// reported, for the user to restore from a backup or remove.
public enum StoreRepair {
  /// Repairs what `report` found; returns what was done, naming every file removed.
  ///
  /// The data directory's files are removed under its lock, with the segments' repair; feed
  /// cache entries under the cache directory's lock (`cache`), so no writer of either is
  /// between a check and a removal.
  ///
  /// A damaged file a feature owns (`owners`: accounts, full texts, downloads, a feed's records)
  /// is removed, saying what the feature says it cost.
  public static func run(
    articles: ArticleStore, cache: EncryptedStore?, report: StoreReport, owners: [StoreFiles]
  ) throws -> [String] {
    let directory = articles.store.directory.standardizedFileURL.path + "/"
    // The files that are there and do not open (one reported missing has nothing to remove).
    let failing = report.files.filter {
      $0.error != nil && FileManager.default.fileExists(atPath: $0.path)
    }
    let damaged = failing.filter { isRemade($0.name) }
    let inData = failing.filter { $0.path.hasPrefix(directory) }
    // A listings index that is gone while listing files remain is rebuilt too.
    var indexRemoved = articles.listingIndexIsMissing
    var actions = try articles.store.transaction { files in
      var actions = try articles.segments.repair(in: files)
      for file in damaged
      where file.path.hasPrefix(directory) && (try? files.remove(file.name)) != nil {
        actions.append("removed \(file.path) (the next fetch writes it again)")
        if file.name == ListingIndex.fileName { indexRemoved = true }
      }
      // A damaged key check, the key proven by the other files: written again.
      if let file = inData.first(where: { $0.name == StoreLayout.keyCheck }) {
        try files.remove(file.name)
        try articles.store.rewriteKeyCheck()
        actions.append("wrote \(file.path) again (it was damaged; the other files prove the key)")
      }
      // A damaged file of a feature's holds nothing that can be read: removed, with what its
      // owner says that costs.
      for file in inData {
        guard let owner = owners.first(where: { $0.owns(file.name) }) else { continue }
        try files.remove(file.name)
        actions.append("removed \(file.path): \(owner.loss(file.name))")
      }
      // A damaged file of read marks is replaced by what can be read: nothing of it, the other
      // files' marks as they are.
      for file in inData where isReadMarks(file.name) {
        try files.remove(file.name)
        actions.append(
          "removed \(file.path): the read marks in it could not be read (those articles show "
            + "unread; every other mark is kept)")
      }
      // Marks removed: no segment is known read through any more.
      if inData.contains(where: { isReadMarks($0.name) }) {
        try articles.forgetFullyRead(in: files)
      }
      return actions
    }
    let elsewhere = damaged.filter { !$0.path.hasPrefix(directory) }
    if !elsewhere.isEmpty {
      let removeCacheEntries = {
        for file in elsewhere where unlink(file.path) == 0 {
          actions.append("removed \(file.path) (the next fetch writes it again)")
        }
      }
      if let cache { try cache.withLock(removeCacheEntries) } else { removeCacheEntries() }
    }
    // A damaged ledger of hooked items would keep every newItem hook from running: remade
    // from what the store holds, all counted as hooked (no hook runs again for them).
    if let file = inData.first(where: { $0.name == StoreLayout.hookLedger }) {
      let count = try articles.remakeHookLedger(at: articles.now())
      actions.append(
        "remade \(file.path) from the \(count) stored article\(count == 1 ? "" : "s"), counted as "
          + "hooked (no newItem hook runs again for them; new items are hooked as before)")
    }
    if indexRemoved {
      let count = try articles.rebuildListingIndex()
      actions.append(
        "rebuilt \(articles.store.url(for: ListingIndex.fileName).path) from \(count) listing file\(count == 1 ? "" : "s")"
      )
    }
    return actions
  }

  /// The files of read marks: a shard, the log, the single file of earlier versions.
  static func isReadMarks(_ name: String) -> Bool {
    name == StoreLayout.readMarks || name == StoreLayout.readMarksLog
      || (name.hasPrefix(StoreLayout.readMarksShardPrefix)
        && name.count == StoreLayout.readMarksShardPrefix.count + 2)
  }

  /// Files the program makes again by itself: listings and feed cache entries.
  static func isRemade(_ name: String) -> Bool {
    StoreLayout.isRemade(name)
  }
}
