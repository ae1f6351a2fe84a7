import Foundation

/// A number for each article, for the protocols that name items by number (`news serve`'s
/// Google Reader and Fever APIs): given once, in the order the articles are first asked for
/// (oldest first), and kept in 64 files by id (`numbers-00` … `numbers-3f`, ``ItemNumberShard``)
/// beside the next number to give (`numbers`). So a number is stable across restarts, syncs and
/// repairs of other files, never two for one article, and later articles have greater numbers
/// (what Fever's `since_id` relies on). Numbers count from 1, far below 2^53: a client reading
/// JSON numbers as doubles reads them exactly.
extension ArticleStore {
  /// The numbers of `ids`, in their order, those without one given the next numbers in the
  /// order of `ids`, or in the order `newOnes` puts them (given their places in `ids`: only
  /// those without a number are ordered). With `pruning`, `ids` are every article there is: the
  /// numbers of the others are dropped (an article retention removed and that comes back later
  /// gets a new one).
  ///
  /// The next number is written before the files that use it: a crash in between leaves a gap,
  /// never one number for two articles.
  public func itemNumbers(
    for ids: [String], pruning: Bool = false, newOnes: (([Int]) -> [Int])? = nil
  ) throws -> [Int64] {
    let keys = ids.map(ReadMarks.key)
    var numbering = ItemNumbering(
      shards: try (0..<BesideKind.shards).map { shard in
        try store.readBytes(BesideKind.itemNumbers.fileName(shard)).map(ItemNumberShard.init)
          ?? ItemNumberShard()
      })
    if let numbers = numbering.numbers(keys), !pruning || numbering.holdsOnly(keys) {
      return numbers
    }
    var ordered = keys
    if let newOnes {
      // Those numbered first (they keep theirs), then the new ones in their order.
      let unnumbered = keys.indices.filter { numbering.number(of: keys[$0]) == nil }
      let numbered = keys.indices.filter { numbering.number(of: keys[$0]) != nil }
      ordered = (numbered + newOnes(unnumbered)).map { keys[$0] }
    }
    return try store.transaction { files in
      numbering = ItemNumbering(
        shards: try (0..<BesideKind.shards).map { shard in
          try files.readBytes(BesideKind.itemNumbers.fileName(shard)).map(ItemNumberShard.init)
            ?? ItemNumberShard()
        })
      let next = try files.read(Int64.self, name: StoreLayout.itemNumbersNext)
      let change = numbering.assign(ordered, next: next, pruning: pruning)
      if change.next != next {
        try files.write(change.next, name: StoreLayout.itemNumbersNext)
      }
      for shard in change.shards.sorted() {
        try files.write(
          bytes: numbering.shards[shard].encoded, name: BesideKind.itemNumbers.fileName(shard))
      }
      // Every key has one now (0 is never given: numbers count from 1).
      return keys.map { numbering.number(of: $0) ?? 0 }
    }
  }
}

/// The 64 files of item numbers in memory, and how new numbers are given (``ArticleStore/
/// itemNumbers(for:pruning:)``).
struct ItemNumbering {
  var shards: [ItemNumberShard]

  /// The numbers of `keys`, in their order; `nil` when one has none.
  func numbers(_ keys: [UInt64]) -> [Int64]? {
    var numbers: [Int64] = []
    numbers.reserveCapacity(keys.count)
    for key in keys {
      guard let number = number(of: key) else { return nil }
      numbers.append(number)
    }
    return numbers
  }

  /// The number of `key`, `nil` when it has none.
  func number(of key: UInt64) -> Int64? {
    shards[Self.shard(of: key)].number(of: key)
  }

  /// Whether the files hold no key but `keys`.
  func holdsOnly(_ keys: [UInt64]) -> Bool {
    shards.reduce(0) { $0 + $1.count } == Set(keys).count
  }

  /// Gives the keys without a number the next ones from `next` (or from after the greatest
  /// held), in order; with `pruning`, drops the others. Returns the next number to give after
  /// them and the files changed.
  mutating func assign(_ keys: [UInt64], next given: Int64?, pruning: Bool) -> (
    next: Int64, shards: Set<Int>
  ) {
    var next = given ?? (shards.map(\.greatest).max() ?? 0) + 1
    var changed = Set<Int>()
    var seen = Set<UInt64>()
    var added: [Int: [(key: UInt64, number: Int64)]] = [:]
    for key in keys where seen.insert(key).inserted {
      guard shards[Self.shard(of: key)].number(of: key) == nil else { continue }
      added[Self.shard(of: key), default: []].append((key, next))
      next += 1
    }
    for (shard, pairs) in added {
      shards[shard].add(pairs)
      changed.insert(shard)
    }
    if pruning {
      for shard in shards.indices where shards[shard].retain({ seen.contains($0) }) {
        changed.insert(shard)
      }
    }
    return (next, changed)
  }

  /// The file of `key`: its first six bits.
  static func shard(of key: UInt64) -> Int { Int(truncatingIfNeeded: key >> 58) }
}
