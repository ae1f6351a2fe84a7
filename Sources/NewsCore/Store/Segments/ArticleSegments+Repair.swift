import Foundation

extension ArticleSegments {
  /// Drops from the manifest every segment that no longer reads whole (a file missing, damaged
  /// or malformed), removes their files and the leftovers, and returns what was done, one line
  /// each. A manifest that does not open is replaced by an empty one. The caller holds the lock
  /// and has checked the key (with a wrong key every segment would look damaged).
  func repair(in files: EncryptedStore.Transaction) throws -> [String] {
    var actions: [String] = []
    var manifest: SegmentManifest
    do {
      manifest = try self.manifest()
    } catch let error as StoreError where !error.isUnsupportedVersion {
      // A newer version's manifest is not damage: it is never replaced.
      actions.append(
        "started a new segment manifest, the old one did not open (\(error.message)): the "
          + "stored articles are gone; listings and bookmarks keep theirs")
      try files.remove(SegmentManifest.fileName)
      manifest = SegmentManifest()
      // Numbers are never reused, whatever files are left.
      let numbers = store.names().compactMap(SegmentInfo.number(inFileName:))
      manifest.next = (numbers.max() ?? -1) + 1
    }
    for provider in manifest.providers.keys.sorted() {
      let kept = manifest.providers[provider]!.filter { info in
        guard let problem = problem(with: info) else { return true }
        actions.append(
          "dropped segment \(info.number) of \(provider) (\(info.count) articles): \(problem)")
        return false
      }
      manifest.providers[provider] = kept.isEmpty ? nil : kept
    }
    guard !actions.isEmpty else {
      removeLeftovers(of: manifest)
      return []
    }
    try commit(manifest, in: files)
    removeLeftovers(of: manifest)
    return actions
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
