import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether the store changed since it was last read, told without reading it: every write
/// replaces its file (a new inode, size and time), so a stamp of the files' metadata changes
/// with any write to them. What a long-running reader of the store (`news serve`) keeps in
/// memory is read again only when its stamp changed.
extension ArticleStore {
  /// Changes when an article is kept, removed or bookmarked.
  public func articlesStamp() -> Int {
    store.files.stamp(of: [
      StoreLayout.segmentManifest, StoreLayout.segmentHead, StoreLayout.bookmarks,
    ])
  }

  /// Changes when a read mark or a bookmark is made or removed.
  public func marksStamp() -> Int {
    store.files.stamp(of: Self.markFiles)
  }

  /// Changes when `news serve`'s login is set.
  public func loginStamp() -> Int {
    store.files.stamp(of: [StoreLayout.serverLogin])
  }

  /// Changes when any file of the store is made, replaced or removed (every write renames into
  /// the directory): one `stat`. Its time is the directory's, so a caller can tell whether a
  /// later write could share it (a file system's clock ticks in milliseconds).
  public func directoryStamp() -> (stamp: Int, modified: Date)? {
    var info = stat()
    guard stat(store.directory.path, &info) == 0 else { return nil }
    var hasher = Hasher()
    hasher.combine(UInt64(info.st_ino))
    #if canImport(Glibc)
      let seconds = info.st_mtim.tv_sec
      let nanoseconds = info.st_mtim.tv_nsec
      hasher.combine(info.st_ctim.tv_sec)
      hasher.combine(info.st_ctim.tv_nsec)
    #else
      let seconds = info.st_mtimespec.tv_sec
      let nanoseconds = info.st_mtimespec.tv_nsec
      hasher.combine(info.st_ctimespec.tv_sec)
      hasher.combine(info.st_ctimespec.tv_nsec)
    #endif
    hasher.combine(seconds)
    hasher.combine(nanoseconds)
    return (
      hasher.finalize(),
      Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1_000_000_000)
    )
  }

  private static let markFiles =
    [StoreLayout.readMarks, StoreLayout.readMarksLog, StoreLayout.bookmarks]
    + (0..<ReadMarks.shardCount).map(StoreLayout.readMarksShard)
}

extension StoreDirectory {
  /// A hash of the device, inode, size and modification time of the files `names` (a missing
  /// one counts as missing).
  func stamp(of names: [String]) -> Int {
    var hasher = Hasher()
    let directory = url.path + "/"
    for name in names {
      var info = stat()
      guard stat(directory + name + Self.fileSuffix, &info) == 0 else {
        hasher.combine(0)
        continue
      }
      hasher.combine(UInt64(info.st_dev))
      hasher.combine(UInt64(info.st_ino))
      hasher.combine(Int64(info.st_size))
      #if canImport(Glibc)
        hasher.combine(info.st_mtim.tv_sec)
        hasher.combine(info.st_mtim.tv_nsec)
      #else
        hasher.combine(info.st_mtimespec.tv_sec)
        hasher.combine(info.st_mtimespec.tv_nsec)
      #endif
    }
    return hasher.finalize()
  }
}
