import FeedParsing
import Foundation

/// Enclosures (``Enclosure``) beside the articles, in `enclosures-00` … `enclosures-3f`
/// (``BesideKind``): written when items carrying them are kept.
extension ArticleStore {
  /// The enclosures of article `id` (none when none were kept).
  public func enclosures(of id: String) throws -> [Enclosure] {
    try beside(.enclosures, of: [id], as: [Enclosure].self)[id] ?? []
  }

  /// The enclosures of those of `ids` that have some.
  public func enclosures(among ids: [String]) throws -> [String: [Enclosure]] {
    try beside(.enclosures, of: ids, as: [Enclosure].self)
  }

  /// The ids of every article with enclosures kept (a query's `has:enclosure`).
  public func idsWithEnclosures() throws -> Set<String> {
    Set(try allBeside(.enclosures, as: [Enclosure].self).filter { !$0.value.isEmpty }.keys)
  }

  /// Keeps each article's enclosures (an article whose item has none keeps what it had).
  public func keepEnclosures(_ enclosures: [String: [Enclosure]]) throws {
    let carrying = enclosures.filter { !$0.value.isEmpty }
    guard !carrying.isEmpty else { return }
    try keepBeside(.enclosures, carrying)
  }
}
