import Foundation

extension StoredArticle {
  /// Appends the record in the compact format of ``BinaryWriter``: every field of ``Article``,
  /// then when it was last seen. A field added to `Article` must be added here and in
  /// ``read(from:)``; the round-trip test compares every field through `Codable`.
  func write(to writer: inout BinaryWriter) {
    writer.string(article.id)
    writer.string(article.provider)
    writer.string(article.title)
    writer.string(article.description)
    writer.string(article.author)
    writer.string(article.source)
    writer.string(article.url)
    writer.string(article.imageURL)
    writer.date(article.publishedAt)
    writer.string(article.content)
    writer.double(seenAt.timeIntervalSince1970)
  }

  /// Reads a record ``write(to:)`` wrote.
  static func read(from reader: inout BinaryReader) throws(BinaryReader.Malformed) -> StoredArticle
  {
    let article = Article(
      id: try reader.string(), provider: try reader.string(), title: try reader.string(),
      description: try reader.optionalString(), author: try reader.optionalString(),
      source: try reader.optionalString(), url: try reader.optionalString(),
      imageURL: try reader.optionalString(), publishedAt: try reader.date(),
      content: try reader.optionalString())
    return StoredArticle(article: article, seenAt: Date(timeIntervalSince1970: try reader.double()))
  }

  /// Moves past a record ``write(to:)`` wrote without building it (its strings are checked
  /// when it is read).
  static func skip(in reader: inout BinaryReader) throws(BinaryReader.Malformed) {
    for _ in 0..<3 { try reader.skipString() }
    for _ in 0..<5 { try reader.skipOptionalString() }
    try reader.skipDate()
    try reader.skipOptionalString()
    _ = try reader.double()
  }
}
