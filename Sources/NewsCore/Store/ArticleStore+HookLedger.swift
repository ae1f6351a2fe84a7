import Foundation

/// The ledger of the items a `newItem` hook ran for (`hooked`): whichever command stores an item
/// first (`sync`, `feed`, browse's reloads, an account's sync) runs the hook for it, and the
/// ledger makes sure no other runs it again, even at the same time.
extension ArticleStore {
  /// How many items the ledger remembers (the most recent): more than any feed lists at once.
  static let hookLedgerSize = 50_000

  /// The runs this run makes: first those an earlier run put off (``putOffHookRuns(_:at:)``),
  /// oldest first, then those of `ids` no hook has run for yet, in the order given; all recorded
  /// now as run, in one read and write of the ledger under the store's lock (so two commands
  /// never both claim one). Without `ids` and nothing owed, the ledger is only read.
  public func claimHookRuns(_ ids: [String], at now: Date) throws -> [String] {
    if ids.isEmpty, try owedHookRuns().isEmpty { return [] }
    var claimed: [String] = []
    try store.update(StoreLayout.hookLedger, initial: [String: Double]()) { ledger in
      let time = now.timeIntervalSince1970
      let given = Set(ids)
      let owed = ledger.filter { $0.value < 0 && !given.contains($0.key) }
        .sorted { ($0.value, $0.key) > ($1.value, $1.key) }.map(\.key)
      for id in owed + ids where ledger[id].map({ $0 < 0 }) ?? true {
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

  /// Puts the runs of `ids` (claimed, then not started: the batch's time was spent) off to the
  /// next run that runs hooks: kept in the ledger as owed (a negative time) rather than run.
  public func putOffHookRuns(_ ids: [String], at now: Date) throws {
    guard !ids.isEmpty else { return }
    try store.update(StoreLayout.hookLedger, initial: [String: Double]()) { ledger in
      for id in ids { ledger[id] = -max(now.timeIntervalSince1970, 1) }
    }
  }

  /// The items whose hook runs were put off, oldest first.
  public func owedHookRuns() throws -> [String] {
    let ledger = try store.read([String: Double].self, name: StoreLayout.hookLedger) ?? [:]
    return ledger.filter { $0.value < 0 }.sorted { ($0.value, $0.key) > ($1.value, $1.key) }
      .map(\.key)
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
