/// The segments read through (``FullyReadSegments``): read before a query's marks, kept after
/// it, and forgotten whenever a mark is removed.
extension ArticleStore {
  /// The segments read through as kept; `nil` when none are kept or the file does not open
  /// (a damaged one costs only speed: the next query writes it again, repair removes it).
  func fullyReadSegments() -> FullyReadSegments? {
    do {
      guard let bytes = try store.readBytes(FullyReadSegments.fileName) else { return nil }
      return try FullyReadSegments(decoding: bytes)
    } catch {
      return nil
    }
  }

  /// Keeps the segments `shards` found read through with those kept, when no mark was removed
  /// since `shards` read what was kept (the epoch is the same), and only those the manifest
  /// still lists. Never waits for the lock and never fails: what is not kept (a writer busy,
  /// a damaged file) is found again by the next query.
  func keepFullyRead(_ shards: ReadMarkShards) {
    let found = shards.foundFullyRead
    guard !found.isEmpty else { return }
    do {
      try store.transaction(wait: false) { files in
        let current = fullyReadSegments()
        guard current?.epoch == shards.fullyRead?.epoch else { return }
        var kept = current ?? .fresh()
        let live = Set(try segments.manifest().providers.values.joined().map(\.number))
        kept.oldestMark = kept.oldestMark.merging(found) { $1 }.filter { live.contains($0.key) }
        guard kept != current else { return }
        try files.write(bytes: kept.encoded, name: FullyReadSegments.fileName)
      }
    } catch {
      // Not kept (the store locked by a writer, or the file damaged): it costs the next
      // query the reading of those segments' ids again, nothing else.
    }
  }

  /// Forgets every segment read through, under a new epoch (a mark is being removed); the
  /// caller holds the lock. A damaged file is replaced: it holds nothing that cannot be found
  /// again.
  func forgetFullyRead(in files: EncryptedStore.Transaction) throws {
    try files.remove(FullyReadSegments.fileName)
    try files.write(bytes: FullyReadSegments.fresh().encoded, name: FullyReadSegments.fileName)
  }
}
