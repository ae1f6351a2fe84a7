import Foundation

extension StoredArticle {
  /// The record, described once: every field of ``Article``, then when it was last seen, then
  /// its categories (one string, each ended by a line feed; none: absent). Its files' magic is
  /// the chunk's (``SegmentBuilder/chunkMagic``; a segment's main file holds the same records,
  /// ``SegmentBuilder/mainMagic``). A field added to `Article` is a new layout and a new magic;
  /// the tests hold ``write(to:)`` and ``read(from:categorized:)`` to this, and this to its
  /// magic.
  static let layout = BinaryLayout(
    magic: SegmentBuilder.chunkMagic,
    fields: [
      .string, .string, .string, .optionalString, .optionalString, .optionalString,
      .optionalString, .optionalString, .date, .optionalString, .double, .optionalString,
    ])
  /// The record of the files written before categories were kept (``SegmentBuilder/firstChunkMagic``,
  /// ``SegmentBuilder/firstMainMagic``): the same, without its last field.
  static let firstLayout = BinaryLayout(
    magic: SegmentBuilder.firstChunkMagic, fields: Array(layout.fields.dropLast()))

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
    writer.optionalString(
      article.categories.isEmpty ? nil : article.categories.map { $0 + "\n" }.joined())
  }

  /// Reads a record ``write(to:)`` wrote (`categorized`), or one of ``firstLayout``.
  static func read(from reader: inout BinaryReader, categorized: Bool = true)
    throws(BinaryReader.Malformed) -> StoredArticle
  {
    var article = Article(
      id: try reader.string(), provider: try reader.string(), title: try reader.string(),
      description: try reader.optionalString(), author: try reader.optionalString(),
      publisher: try reader.optionalString(), url: try reader.optionalString(),
      imageURL: try reader.optionalString(), publishedAt: try reader.date(),
      content: try reader.optionalString())
    let seenAt = Date(timeIntervalSince1970: try reader.double())
    if categorized, let categories = try reader.optionalString() {
      // Split at each line feed byte: a category ending in a carriage return still reads
      // back as written (a CR LF is one Character).
      article.categories = categories.utf8.split(separator: 0x0A).map {
        String(decoding: $0, as: UTF8.self)
      }
    }
    return StoredArticle(article: article, seenAt: seenAt)
  }

  /// Moves past a record without building it (its strings are checked when it is read).
  static func skip(in reader: inout BinaryReader, categorized: Bool = true)
    throws(BinaryReader.Malformed)
  {
    try reader.skip(categorized ? layout.fields : firstLayout.fields)
  }
}
