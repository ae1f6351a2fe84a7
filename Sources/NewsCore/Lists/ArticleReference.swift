import Foundation

/// What a user may type to name an article: a full id, a 1-based index into the last listing, a
/// unique prefix of an id, or the article's URL.
public enum ArticleReference {
  /// The articles `references` name, in their order: the full ids among them looked up at once
  /// (one pass over the store, not one each), the others as ``resolve(_:in:)`` does.
  ///
  /// - Throws: ``LookupError`` (exit 64) at the first that names nothing, or too much.
  public static func resolveAll(_ references: [String], in store: ArticleStore) throws
    -> [Article]
  {
    let found = try exactMatches(references, in: store)
    return try references.map { try found[$0] ?? resolve($0, in: store) }
  }

  /// Those of `references` that are full ids of stored articles, looked up at once; none for
  /// a single reference (``resolve(_:in:)`` is as quick there).
  static func exactMatches(_ references: [String], in store: ArticleStore) throws
    -> [String: Article]
  {
    guard references.count > 1 else { return [:] }
    let ids = references.filter { reference in
      let lowered = reference.lowercased()
      return !lowered.hasPrefix("http://") && !lowered.hasPrefix("https://")
        && !reference.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
    }
    return ids.isEmpty ? [:] : try store.articles(ids: ids)
  }

  /// The article `reference` names.
  ///
  /// A URL that is not stored still resolves, to an article holding only the URL and its id.
  ///
  /// - Throws: ``LookupError`` (exit 64) when it names nothing, or too much.
  public static func resolve(_ reference: String, in store: ArticleStore) throws -> Article {
    let lowered = reference.lowercased()
    if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
      let id = ArticleID.derive(fromURL: reference)
      guard ArticleID.namesAPage(id) else {
        throw LookupError.notAnArticleURL(reference)
      }
      if let stored = try store.article(id: id) { return stored }
      return Article(id: id, provider: SourceName.url, title: reference, url: reference)
    }
    if let index = Int(reference), reference.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) })
    {
      guard let last = try store.lastListing() else {
        throw LookupError.noListing
      }
      guard index >= 1, index <= last.listing.ids.count else {
        throw LookupError.indexOutOfRange(index: index, count: last.listing.ids.count)
      }
      let id = last.listing.ids[index - 1]
      guard let article = last.articles.first(where: { $0.id == id }) else {
        throw LookupError.notFound(reference)
      }
      return article
    }
    if let exact = try store.article(id: reference) { return exact }
    let all = try store.allArticles()
    let candidates = all.filter { $0.id.hasPrefix(reference) }.map(\.id).sorted()
    switch candidates.count {
    case 0: throw LookupError.notFound(reference)
    case 1: return all.first { $0.id == candidates[0] }!
    default: throw LookupError.ambiguous(reference, candidates: candidates)
    }
  }
}
