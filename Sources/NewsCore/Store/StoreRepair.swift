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
/// so none is left unreachable. Bookmarks, read marks and the key check are never touched: a
/// damaged one stays reported, for the user to restore from a backup or remove.
public enum StoreRepair {
  /// Repairs what `report` found; returns what was done, naming every file removed.
  ///
  /// The data directory's files are removed under its lock, with the segments' repair; feed
  /// cache entries under the cache directory's lock (`cache`), so no writer of either is
  /// between a check and a removal.
  public static func run(articles: ArticleStore, cache: EncryptedStore?, report: StoreReport)
    throws -> [String]
  {
    let directory = articles.store.directory.standardizedFileURL.path + "/"
    let damaged = report.files.filter { $0.error != nil && isRemade($0.name) }
    var indexRemoved = false
    var actions = try articles.store.transaction { files in
      var actions = try articles.segments.repair(in: files)
      for file in damaged
      where file.path.hasPrefix(directory) && (try? files.remove(file.name)) != nil {
        actions.append("removed \(file.path) (the next fetch writes it again)")
        if file.name == ListingIndex.fileName { indexRemoved = true }
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
    if indexRemoved {
      let count = try articles.rebuildListingIndex()
      actions.append(
        "rebuilt \(articles.store.url(for: ListingIndex.fileName).path) from \(count) listing file\(count == 1 ? "" : "s")"
      )
    }
    return actions
  }

  /// Files the program makes again by itself: listings and feed cache entries.
  static func isRemade(_ name: String) -> Bool {
    StoreLayout.isRemade(name)
  }
}
