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
/// writes them again). Bookmarks, read marks and the key check are never touched: a damaged one
/// stays reported, for the user to restore from a backup or remove.
public enum StoreRepair {
  /// Repairs what `report` found, in `articles`' store, under its lock; returns what was done.
  public static func run(articles: ArticleStore, report: StoreReport) throws -> [String] {
    var actions = try articles.store.transaction { files in
      try articles.segments.repair(in: files)
    }
    for file in report.files where file.error != nil && isRemade(file.name) {
      if unlink(file.path) == 0 {
        actions.append("removed \(file.path) (the next fetch writes it again)")
      }
    }
    return actions
  }

  /// Files the program makes again by itself: listings and feed cache entries.
  static func isRemade(_ name: String) -> Bool {
    name == "listings" || name == "last-listing" || name.hasPrefix("listing-")
      || name.hasPrefix("feed-")
  }
}
