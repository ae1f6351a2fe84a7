import Foundation

/// The state of the store, for `news doctor`: where it is, the key in use, whether every file
/// decrypts, and what interrupted writes left behind. Examining it creates nothing.
public struct StoreReport: Sendable {
  /// One file of the store.
  public struct File: Sendable {
    /// Its name in the store (`articles-newsapi`).
    public var name: String
    /// Its path.
    public var path: String
    /// Its size.
    public var bytes: Int
    /// Why it does not open, if it does not.
    public var error: String?
    /// What mends it, when something does.
    public var advice: Advice?
  }

  /// Where the key comes from (`NEWS_STORE_KEY` or the key file), `nil` before there is one.
  public var keySource: String?
  /// Every file, data directory first.
  public var files: [File]
  /// Temporary files left by interrupted writes (removed by the next write).
  public var leftovers: [String]
  /// Why the key opens no file of the data directory (a wrong key), if it does not: every
  /// file then fails for that one reason.
  public var keyRejected: String?

  /// Whether every file decrypts.
  public var isHealthy: Bool { files.allSatisfy { $0.error == nil } }

  /// Looks at every store file of `directories` (the data directory first), opening them with
  /// `key` (`nil` before there is one).
  public static func examine(_ directories: [URL], key: StoreKey?) -> StoreReport {
    var report = StoreReport(keySource: key?.source, files: [], leftovers: [], keyRejected: nil)
    for directory in directories {
      let files = StoreDirectory(url: directory)
      report.leftovers += files.leftoverTemporaryFiles()
      // Only read, never written: no random bytes are ever asked for.
      let store = key.map {
        EncryptedStore(directory: directory, key: $0, randomBytes: { _ in [] })
      }
      if let store, report.keyRejected == nil {
        do { try store.verifyKey() } catch let error as StoreError {
          if case .wrongKey = error { report.keyRejected = error.message }
        } catch {}
      }
      for name in files.names() {
        var file = File(
          name: name, path: files.fileURL(name).path, bytes: files.size(of: name) ?? 0)
        if let store {
          do { try store.verify(name) } catch {
            file.error = (error as? any NewsError)?.message ?? String(describing: error)
          }
        } else {
          file.error = "there is no key to open it with (NEWS_STORE_KEY unset, no key file)"
        }
        report.files.append(file)
      }
      if let store { report.checkSegments(in: store) }
      let names = files.names()
      if !names.contains(StoreLayout.listingIndex),
        names.contains(where: { ListingIndex.slot(ofFileNamed: $0) != nil })
      {
        report.files.append(
          File(
            name: StoreLayout.listingIndex, path: files.fileURL(StoreLayout.listingIndex).path,
            bytes: 0,
            error:
              "missing while listing files remain: rebuilt from them by the next list",
            advice: .repairStore(does: "rebuilds it")))
      }
    }
    return report
  }

  /// Adds what the segment manifest lists and is missing (an error), a manifest that is gone
  /// while segments remain (an error: they are read through a manifest rebuilt from them), and
  /// the segment files it does not list: leftovers of an interrupted save (the next save removes
  /// them) or, when not provably so, files kept as they may hold articles (an error).
  private mutating func checkSegments(in store: EncryptedStore) {
    var manifest: SegmentManifest
    let segments = ArticleSegments(store: store, retention: RetentionPolicy())
    let head = segments.head()
    // Listed after the manifest is read (and again with each newer one): a segment a writer
    // made since the listing is never taken for missing.
    let first = try? SegmentManifest.stored(in: store)
    var present = Set(store.names())
    if let read = first, let head = segments.rollback(of: read, head: head) {
      // Put back from an older copy: what it lists is not what the store holds.
      manifest = segments.rebuiltManifest()
      manifest.generation = head.generation
      if let index = files.firstIndex(where: { $0.name == SegmentManifest.fileName }) {
        files[index].error =
          "an older copy (generation \(read.generation ?? 0); the store's last commit was "
          + "\(head.generation)): put back from a backup or by a sync tool? The segments are read "
          + "through a manifest rebuilt from them"
        files[index].advice = .repairStore(does: "writes it again")
      }
    } else if var read = first {
      // A writer may commit between reading the manifest and listing the files: a listed file
      // missing counts only once the manifest read after the listing is the same one.
      for _ in 0..<ArticleSegments.maximumReadAttempts
      where !read.liveFileNames.isSubset(of: present) {
        guard let fresh = try? SegmentManifest.stored(in: store),
          fresh != read
        else { break }
        read = fresh
        present = Set(store.names())
      }
      manifest = read
    } else if !present.contains(SegmentManifest.fileName),
      present.contains(where: {
        SegmentInfo.number(inFileName: $0) != nil || SegmentPack.number(inFileName: $0) != nil
      })
    {
      manifest = segments.rebuiltManifest()
      files.append(
        File(
          name: SegmentManifest.fileName, path: store.url(for: SegmentManifest.fileName).path,
          bytes: 0,
          error:
            "missing: the segments are read through a manifest rebuilt from them (the next save "
            + "writes it again)", advice: .repairStore(does: "writes it again")))
    } else {
      return
    }
    let live = manifest.liveFileNames
    for name in live.sorted() where !present.contains(name) {
      files.append(
        File(
          name: name, path: store.url(for: name).path, bytes: 0,
          error: "missing: the store's segment manifest lists it"))
    }
    let isLeftover = manifest.leftovers()
    let unlisted = present.filter(isLeftover)
    // Not part of the store (whether they open does not matter): the next save removes them.
    files.removeAll { unlisted.contains($0.name) && $0.path.hasPrefix(store.directory.path) }
    leftovers += unlisted.sorted().map { store.url(for: $0).path }
    let kept = present.filter {
      (SegmentInfo.number(inFileName: $0) ?? SegmentPack.number(inFileName: $0)) != nil
        && !live.contains($0) && !isLeftover($0)
    }
    for index in files.indices where kept.contains(files[index].name) {
      files[index].error =
        files[index].error
        ?? "not listed by the segment manifest, kept as it may hold articles "
        + "(a damaged or replaced segment: see what it holds before removing it)"
    }
  }
}
