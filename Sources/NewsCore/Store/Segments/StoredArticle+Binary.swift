import Foundation

extension StoredArticle {
  /// The record, described once: every field of ``Article``, then when it was last seen. Its
  /// files' magic is the chunk's (``SegmentBuilder/chunkMagic``; a segment's main file holds
  /// the same records). A field added to `Article` is a new layout and a new magic; the tests
  /// hold ``write(to:)`` and ``read(from:)`` to this, and this to its magic.
  static let layout = BinaryLayout(
    magic: SegmentBuilder.chunkMagic,
    fields: [
      .string, .string, .string, .optionalString, .optionalString, .optionalString,
      .optionalString, .optionalString, .date, .optionalString, .double,
    ])

  /// Appends the record in the compact format of ``BinaryWriter`` (``layout``).
  func write(to writer: inout BinaryWriter) {
    writer.string(article.id)
    writer.string(article.provider)
    writer.string(article.title)
    writer.optionalString(article.description)
    writer.optionalString(article.author)
    writer.optionalString(article.publisher)
    writer.optionalString(article.url)
    writer.optionalString(article.imageURL)
    writer.date(article.publishedAt)
    writer.optionalString(article.content)
    writer.double(seenAt.timeIntervalSince1970)
  }

  /// Reads a record ``write(to:)`` wrote.
  static func read(from reader: inout BinaryReader) throws(BinaryReader.Malformed) -> StoredArticle
  {
    let article = Article(
      id: try reader.string(), provider: try reader.string(), title: try reader.string(),
      description: try reader.optionalString(), author: try reader.optionalString(),
      publisher: try reader.optionalString(), url: try reader.optionalString(),
      imageURL: try reader.optionalString(), publishedAt: try reader.date(),
      content: try reader.optionalString())
    return StoredArticle(article: article, seenAt: Date(timeIntervalSince1970: try reader.double()))
  }

  /// Moves past a record without building it (its strings are checked when it is read).
  static func skip(in reader: inout BinaryReader) throws(BinaryReader.Malformed) {
    try reader.skip(layout.fields)
  }
}
