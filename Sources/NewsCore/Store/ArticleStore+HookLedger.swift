import Foundation

/// The ledger of the items a `newItem` hook ran for (`hooked`): whichever command stores an item
/// first (`sync`, `feed`, browse's reloads, an account's sync) runs the hook for it, and the
/// ledger makes sure no other runs it again, even at the same time.
extension ArticleStore {
  /// How many items the ledger remembers (the most recent): more than any feed lists at once.
  static let hookLedgerSize = 50_000

  /// Of `ids`, those no hook has run for yet, recorded now as run (under the store's lock, so
  /// two commands never both claim one), in the order given.
  public func claimHookRuns(_ ids: [String], at now: Date) throws -> [String] {
    guard !ids.isEmpty else { return [] }
    var claimed: [String] = []
    try store.update(StoreLayout.hookLedger, initial: [String: Double]()) { ledger in
      let time = now.timeIntervalSince1970
      for id in ids where ledger[id] == nil {
        ledger[id] = time
        claimed.append(id)
      }
      if ledger.count > Self.hookLedgerSize {
        let oldest = ledger.sorted { $0.value < $1.value }.prefix(
          ledger.count - Self.hookLedgerSize)
        for (id, _) in oldest { ledger[id] = nil }
      }
    }
    return claimed
  }

  /// Remakes a damaged ledger (`doctor --repair`): every article the store holds counts as one
  /// a hook already ran for (the most recent ``hookLedgerSize``), so no hook runs again for
  /// everything; items first stored from now on are hooked as usual. Returns how many it holds.
  func remakeHookLedger(at now: Date) throws -> Int {
    let ids = try segments.reading { manifest in
      var ids: [String] = []
      for provider in manifest.providers.keys.sorted() {
        for info in manifest.providers[provider] ?? [] {
          ids +=
            try segments.aroundDamage(info, of: provider) {
              try SegmentReader(info, in: store).ids()
            } ?? []
        }
      }
      return ids
    }
    var ledger: [String: Double] = [:]
    let time = now.timeIntervalSince1970
    for id in ids.suffix(Self.hookLedgerSize) { ledger[id] = time }
    try store.transaction { files in
      try files.remove(StoreLayout.hookLedger)
      try files.write(ledger, name: StoreLayout.hookLedger)
    }
    return ledger.count
  }
}
