import Foundation

/// Full texts (``FullText``) beside the articles, in `fulltext-00` … `fulltext-3f`
/// (``BesideKind``). A full text goes with its article: when the article is no longer stored nor
/// bookmarked and the full text is older than retention's age, the next write to its file drops
/// it.
extension ArticleStore {
  /// The full text of article `id`, if one was kept.
  public func fullText(of id: String) throws -> FullText? {
    try beside(.fullText, of: [id], as: FullText.self)[id]
  }

  /// Which of `ids` have a full text kept.
  public func fullTexts(among ids: [String]) throws -> Set<String> {
    Set(try beside(.fullText, of: ids, as: FullText.self).keys)
  }

  /// Every kept full text, by article id (search reads them all).
  public func allFullTexts() throws -> [String: FullText] {
    try allBeside(.fullText, as: FullText.self)
  }

  /// Keeps `text` as article `id`'s full text, dropping from its file the full texts whose
  /// article is gone (see the type's note).
  public func keepFullText(_ text: FullText, for id: String) throws {
    let cutoff = now().addingTimeInterval(-retention.maximumAge.seconds)
    let bookmarked = Set(try bookmarks().map(\.id))
    try keepBeside(.fullText, [id: text]) { other, kept in
      guard kept.extractedAt < cutoff, !bookmarked.contains(other) else { return false }
      return try article(id: other) == nil
    }
  }
}
