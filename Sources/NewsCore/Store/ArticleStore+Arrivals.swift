import Foundation

/// When each item was first seen: what `news feed --since <time>` asks. Kept beside the articles
/// in 64 files by id (`arrivals-00` … `arrivals-3f`, ``BesideKind``), so that a run finding new
/// items rewrites the few small files their ids hash to, not one record of every arrival; each
/// file keeps its latest ``arrivalsPerShard``.
extension ArticleStore {
  /// How many first-seen times one file keeps (64,000 in all).
  static let arrivalsPerShard = 1_000

  /// Records `ids` as first seen at `date` (an id seen before keeps its time).
  public func noteArrivals(_ ids: [String], at date: Date) throws {
    guard !ids.isEmpty else { return }
    let time = date.timeIntervalSince1970
    try store.transaction { files in
      var shards: [Int: [String: Double]] = [:]
      // The single file of earlier versions, folded in once.
      let legacy = try files.read([String: Double].self, name: StoreLayout.arrivals)
      for (id, seen) in legacy ?? [:] { shards[BesideKind.shard(of: id), default: [:]][id] = seen }
      for id in ids { shards[BesideKind.shard(of: id), default: [:]][id] = nil }
      for (shard, members) in Dictionary(grouping: ids, by: BesideKind.shard) {
        shards[shard, default: [:]].merge(members.map { ($0, time) }) { kept, _ in kept }
      }
      for (shard, arrivals) in shards {
        let name = BesideKind.arrivals.fileName(shard)
        var file = try files.read([String: Double].self, name: name) ?? [:]
        file.merge(arrivals) { kept, _ in kept }
        if file.count > Self.arrivalsPerShard {
          for (id, _) in file.sorted(by: { $0.value < $1.value }).prefix(
            file.count - Self.arrivalsPerShard)
          {
            file[id] = nil
          }
        }
        try files.write(file, name: name)
      }
      if legacy != nil { try files.remove(StoreLayout.arrivals) }
    }
  }

  /// When each of `ids` was first seen, for those recorded (only the files they hash to are
  /// read).
  public func arrivals(of ids: [String]) throws -> [String: Date] {
    var found = try beside(.arrivals, of: ids, as: Double.self)
    if let legacy = try store.read([String: Double].self, name: StoreLayout.arrivals) {
      for id in ids where found[id] == nil { found[id] = legacy[id] }
    }
    return found.mapValues { Date(timeIntervalSince1970: $0) }
  }
}
