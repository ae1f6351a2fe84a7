import Foundation

/// When each item was first seen (`arrivals`): what `news feed --since <time>` asks. Written by
/// a fetch that finds items its cache did not hold; the oldest are dropped past
/// ``maximumArrivals``.
extension ArticleStore {
  /// How many first-seen times are kept.
  static let maximumArrivals = 50_000

  /// Records `ids` as first seen at `date` (an id seen before keeps its time).
  public func noteArrivals(_ ids: [String], at date: Date) throws {
    guard !ids.isEmpty else { return }
    try store.update(StoreLayout.arrivals, initial: [String: Double]()) { arrivals in
      for id in ids where arrivals[id] == nil { arrivals[id] = date.timeIntervalSince1970 }
      if arrivals.count > Self.maximumArrivals {
        let oldest = arrivals.sorted { $0.value < $1.value }.prefix(
          arrivals.count - Self.maximumArrivals)
        for (id, _) in oldest { arrivals[id] = nil }
      }
    }
  }

  /// When each of `ids` was first seen, for those recorded.
  public func arrivals(of ids: [String]) throws -> [String: Date] {
    let arrivals = try store.read([String: Double].self, name: StoreLayout.arrivals) ?? [:]
    var found: [String: Date] = [:]
    for id in ids { if let time = arrivals[id] { found[id] = Date(timeIntervalSince1970: time) } }
    return found
  }
}
