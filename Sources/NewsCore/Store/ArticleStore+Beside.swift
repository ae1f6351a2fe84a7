import FeedParsing
import Foundation

/// What is kept beside the articles, by article id, in 64 files each (`fulltext-00` …,
/// `enclosures-00` …): the values of the ids whose hash starts there. A list reads only the
/// files its ids hash to.
enum BesideKind: CaseIterable {
  /// Extracted full texts (``FullText``).
  case fullText
  /// Enclosures (``Enclosure``), podcast episodes among them.
  case enclosures
  /// When each item was first seen (``ArticleStore/noteArrivals(_:at:)``).
  case arrivals
  /// Each article's number, as the Google Reader and Fever APIs name items
  /// (``ArticleStore/itemNumbers(for:pruning:)``).
  case itemNumbers

  /// How many files its values are spread over.
  static let shards = 64

  /// The file of shard `index`.
  func fileName(_ index: Int) -> String {
    switch self {
    case .fullText: StoreLayout.fullTextShard(index)
    case .enclosures: StoreLayout.enclosuresShard(index)
    case .arrivals: StoreLayout.arrivalsShard(index)
    case .itemNumbers: StoreLayout.itemNumbersShard(index)
    }
  }

  /// What a damaged file of this kind leaves out, for the warning.
  var leftOut: String {
    let what =
      switch self {
      case .fullText: "the full texts kept in it are left out"
      case .enclosures: "the episodes and media listed in it are left out"
      case .arrivals: "the first-seen times in it are left out"
      case .itemNumbers: "the item numbers in it are left out"
      }
    return what
  }

  /// The shard holding id `id`'s value.
  static func shard(of id: String) -> Int {
    Int(truncatingIfNeeded: ReadMarks.key(id) >> 58)
  }
}

extension ArticleStore {
  /// The values of kind `kind` of `ids` that are kept (the files they hash to are read, no
  /// others).
  func beside<Value: Codable>(_ kind: BesideKind, of ids: [String], as type: Value.Type) throws
    -> [String: Value]
  {
    var found: [String: Value] = [:]
    for (shard, members) in Dictionary(grouping: ids, by: BesideKind.shard) {
      guard
        let values = try store.readSide(
          [String: Value].self, name: kind.fileName(shard), leftOut: kind.leftOut,
          advice: .repairStore(does: "removes it"))
      else {
        continue
      }
      for id in members { if let value = values[id] { found[id] = value } }
    }
    return found
  }

  /// Every value of kind `kind`.
  func allBeside<Value: Codable>(_ kind: BesideKind, as type: Value.Type) throws -> [String: Value]
  {
    var all: [String: Value] = [:]
    for shard in 0..<BesideKind.shards {
      guard
        let values = try store.readSide(
          [String: Value].self, name: kind.fileName(shard), leftOut: kind.leftOut,
          advice: .repairStore(does: "removes it"))
      else {
        continue
      }
      all.merge(values) { first, _ in first }
    }
    return all
  }

  /// Keeps `values`, one write a file; with `stale`, drops from the files written the values
  /// (of other ids) it says are stale.
  func keepBeside<Value: Codable>(
    _ kind: BesideKind, _ values: [String: Value],
    stale: ((String, Value) throws -> Bool)? = nil
  ) throws {
    for (shard, members) in Dictionary(grouping: values.keys, by: BesideKind.shard) {
      let name = kind.fileName(shard)
      var dropped: [String] = []
      if let stale, let kept = try store.read([String: Value].self, name: name) {
        for (other, value) in kept where values[other] == nil {
          if try stale(other, value) { dropped.append(other) }
        }
      }
      try store.update(name, initial: [String: Value]()) { file in
        for other in dropped { file[other] = nil }
        for id in members { file[id] = values[id] }
      }
    }
  }
}
