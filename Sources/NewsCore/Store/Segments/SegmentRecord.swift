import Foundation

/// A record as a reader of segments builds it: whole (``StoredArticle``), or only what a list
/// of every article needs (``StoredHead``). Both are merged and ordered alike
/// (``ArticleSegments/merged(_:cutoff:limit:)``).
protocol SegmentRecord {
  /// Reads a record of ``StoredArticle/layout`` (`categorized`) or of its first layout.
  static func read(from reader: inout BinaryReader, categorized: Bool)
    throws(BinaryReader.Malformed) -> Self
  /// Its article's id.
  var id: String { get }
  /// When it was last seen in an answer.
  var seenAt: Date { get }
  /// Its publication time in seconds since 1970; ``SegmentInfo/undated`` when it has none.
  var published: Double { get }
}

extension StoredArticle: SegmentRecord {
  var id: String { article.id }
  var published: Double { article.publishedAt?.timeIntervalSince1970 ?? SegmentInfo.undated }
}

/// A record's ``ArticleHead`` with when it was last seen, read without building its text.
struct StoredHead: SegmentRecord, Sendable {
  var head: ArticleHead
  var seenAt: Date

  var id: String { head.id }
  var published: Double { head.publishedAt?.timeIntervalSince1970 ?? SegmentInfo.undated }

  /// Reads the id, provider, publication and last sight of a record of ``StoredArticle/layout``,
  /// moving past its other fields without building them.
  static func read(from reader: inout BinaryReader, categorized: Bool)
    throws(BinaryReader.Malformed) -> StoredHead
  {
    let id = try reader.string()
    let provider = try reader.string()
    try reader.skipString()
    for _ in 0..<5 { try reader.skipOptionalString() }
    let publishedAt = try reader.date()
    try reader.skipOptionalString()
    let seenAt = Date(timeIntervalSince1970: try reader.double())
    if categorized { try reader.skipOptionalString() }
    return StoredHead(
      head: ArticleHead(id: id, provider: provider, publishedAt: publishedAt), seenAt: seenAt)
  }
}
