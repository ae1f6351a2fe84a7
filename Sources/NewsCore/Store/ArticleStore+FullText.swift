import Foundation

/// Full texts (``FullText``) beside the articles: 64 files `fulltext-00` … `fulltext-3f`, each
/// the full texts of the ids whose hash starts there. A full text goes with its article: when
/// the article is no longer stored nor bookmarked and the full text is older than retention's
/// age, the next write to its file drops it.
extension ArticleStore {
  /// How many files the full texts are spread over.
  static let fullTextShards = 64

  static func fullTextShard(of id: String) -> Int {
    Int(truncatingIfNeeded: ReadMarks.key(id) >> 58)
  }

  /// The full text of article `id`, if one was kept.
  public func fullText(of id: String) throws -> FullText? {
    try store.read(
      [String: FullText].self, name: StoreLayout.fullTextShard(Self.fullTextShard(of: id)))?[id]
  }

  /// Which of `ids` have a full text kept (the files they hash to are read, no others).
  public func fullTexts(among ids: [String]) throws -> Set<String> {
    var found = Set<String>()
    for (shard, members) in Dictionary(grouping: ids, by: Self.fullTextShard) {
      guard
        let texts = try store.read([String: FullText].self, name: StoreLayout.fullTextShard(shard))
      else { continue }
      found.formUnion(members.filter { texts[$0] != nil })
    }
    return found
  }

  /// Every kept full text, by article id (search reads them all).
  public func allFullTexts() throws -> [String: FullText] {
    var all: [String: FullText] = [:]
    for shard in 0..<Self.fullTextShards {
      guard
        let texts = try store.read([String: FullText].self, name: StoreLayout.fullTextShard(shard))
      else { continue }
      all.merge(texts) { first, _ in first }
    }
    return all
  }

  /// Keeps `text` as article `id`'s full text, dropping from its file the full texts whose
  /// article is gone (see the type's note).
  public func keepFullText(_ text: FullText, for id: String) throws {
    let cutoff = now().addingTimeInterval(-retention.maximumAge.seconds)
    let bookmarked = Set(try bookmarks().map(\.id))
    let name = StoreLayout.fullTextShard(Self.fullTextShard(of: id))
    var stale: [String] = []
    if let texts = try store.read([String: FullText].self, name: name) {
      for (other, kept) in texts
      where other != id && kept.extractedAt < cutoff && !bookmarked.contains(other) {
        if try article(id: other) == nil { stale.append(other) }
      }
    }
    try store.update(name, initial: [String: FullText]()) { texts in
      for other in stale { texts[other] = nil }
      texts[id] = text
    }
  }
}
