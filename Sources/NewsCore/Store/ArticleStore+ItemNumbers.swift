import Foundation

/// A number for each article, for the protocols that name items by number (`news serve`'s
/// Google Reader and Fever APIs): given once, in the order the articles are first asked for
/// (oldest first), and kept in 64 files by id (`numbers-00` … `numbers-3f`) beside the next
/// number to give (`numbers`). So a number is stable across restarts, syncs and repairs of other
/// files, never two for one article, and later articles have greater numbers (what Fever's
/// `since_id` relies on). Numbers stay below 2^53, so that a client reading JSON numbers as
/// doubles reads them exactly.
extension ArticleStore {
  /// The numbers of `ids`, those without one given the next numbers in the order of `ids`.
  /// With `pruning`, `ids` are every article there is: the numbers of the others are dropped
  /// (an article retention removed and that comes back later gets a new one).
  ///
  /// The next number is written before the files that use it: a crash in between leaves a gap,
  /// never one number for two articles.
  public func itemNumbers(for ids: [String], pruning: Bool = false) throws -> [String: Int64] {
    let kept = try allBeside(.itemNumbers, as: Int64.self)
    if ids.allSatisfy({ kept[$0] != nil }), !pruning || kept.count == Set(ids).count {
      var numbers: [String: Int64] = [:]
      for id in ids { numbers[id] = kept[id] }
      return numbers
    }
    return try store.transaction { files in
      var shards: [Int: [String: Int64]] = [:]
      for shard in 0..<BesideKind.shards {
        shards[shard] =
          try files.read([String: Int64].self, name: BesideKind.itemNumbers.fileName(shard)) ?? [:]
      }
      var next =
        try files.read(Int64.self, name: StoreLayout.itemNumbersNext)
        ?? (shards.values.flatMap(\.values).max() ?? 0) + 1
      var changed = Set<Int>()
      var numbers: [String: Int64] = [:]
      var missing: [String] = []
      for id in ids where numbers[id] == nil {
        if let number = shards[BesideKind.shard(of: id)]?[id] {
          numbers[id] = number
        } else {
          numbers[id] = 0
          missing.append(id)
        }
      }
      if !missing.isEmpty {
        try files.write(next + Int64(missing.count), name: StoreLayout.itemNumbersNext)
        for id in missing {
          let shard = BesideKind.shard(of: id)
          shards[shard, default: [:]][id] = next
          numbers[id] = next
          changed.insert(shard)
          next += 1
        }
      }
      if pruning {
        for (shard, file) in shards {
          let stale = file.keys.filter { numbers[$0] == nil }
          guard !stale.isEmpty else { continue }
          for id in stale { shards[shard]?[id] = nil }
          changed.insert(shard)
        }
      }
      for shard in changed.sorted() {
        try files.write(shards[shard] ?? [:], name: BesideKind.itemNumbers.fileName(shard))
      }
      return numbers
    }
  }
}
