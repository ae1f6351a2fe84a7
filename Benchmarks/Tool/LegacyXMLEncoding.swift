import Foundation

/// Feeds as valid UTF-8 before `XMLParser` sees them: on Linux it crashes on a name that is not
/// valid UTF-8 (found by fuzzing), and feeds in the wild declare encodings they do not use.
///
/// A feed in a declared single-byte encoding (ISO-8859-1, Windows-1252, ASCII) or UTF-16 is
/// transcoded and its declaration rewritten; a feed that says UTF-8 (or nothing) but is not is
/// read as Windows-1252, the usual truth behind that mistake.
enum LegacyXMLEncoding {
  /// `data` as UTF-8 XML, without processing instructions that carry no data (`<?target?>`):
  /// `XMLParser` on Linux crashes on those (found by fuzzing), and a feed has no use for them.
  static func utf8(_ data: Data) throws(LegacyXMLFeedParser.Failure) -> Data {
    withoutEmptyInstructions(try transcoded(data))
  }

  private static func withoutEmptyInstructions(_ data: Data) -> Data {
    // Find them first: nearly every feed has none, and is then handed on as it is.
    var empty: [Range<Data.Index>] = []
    var from = data.startIndex
    while let open = data.range(of: Data("<?".utf8), in: from..<data.endIndex) {
      // `<?name?>` or `<?name   ?>`: a target and nothing else. (The XML declaration always has
      // data, so it is never one of them.)
      var cursor = open.upperBound
      while cursor < data.endIndex, !isSpace(data[cursor]), data[cursor] != UInt8(ascii: "?"),
        data[cursor] != UInt8(ascii: ">")
      {
        cursor += 1
      }
      while cursor < data.endIndex, isSpace(data[cursor]) { cursor += 1 }
      if cursor + 1 < data.endIndex, data[cursor] == UInt8(ascii: "?"),
        data[cursor + 1] == UInt8(ascii: ">")
      {
        empty.append(open.lowerBound..<(cursor + 2))
        from = cursor + 2
      } else {
        from = open.upperBound
      }
    }
    guard !empty.isEmpty else { return data }
    var out = Data()
    out.reserveCapacity(data.count)
    var kept = data.startIndex
    for range in empty {
      out.append(data[kept..<range.lowerBound])
      kept = range.upperBound
    }
    out.append(data[kept...])
    return out
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  private static func transcoded(_ data: Data) throws(LegacyXMLFeedParser.Failure) -> Data {
    var bytes = data
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    let declared = declaredEncoding(bytes)
    let encoding: String.Encoding
    switch declared {
    case nil, "utf-8", "utf8":
      if String(data: bytes, encoding: .utf8) != nil { return Data(bytes) }
      encoding = .windowsCP1252
    case "iso-8859-1", "latin1", "latin-1", "iso8859-1": encoding = .isoLatin1
    case "windows-1252", "cp1252": encoding = .windowsCP1252
    case "us-ascii", "ascii": encoding = .ascii
    case "utf-16", "utf-16le", "utf-16be": encoding = .utf16
    case let other?:
      throw LegacyXMLFeedParser.Failure(detail: "the feed's encoding \(other) is not supported")
    }
    guard
      let text = String(data: bytes, encoding: encoding)
        ?? String(data: bytes, encoding: .isoLatin1)
    else { throw LegacyXMLFeedParser.Failure(detail: "the feed is not text in any known encoding") }
    return Data(rewritingDeclaration(text).utf8)
  }

  /// The `encoding` of the XML declaration, lower-cased.
  private static func declaredEncoding(_ bytes: Data) -> String? {
    let head = String(decoding: bytes.prefix(200), as: UTF8.self)
    guard head.hasPrefix("<?xml"), let end = head.range(of: "?>") else { return nil }
    let declaration = head[..<end.lowerBound]
    guard let key = declaration.range(of: "encoding") else { return nil }
    let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" }
    guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
    return rest.dropFirst().prefix { $0 != quote }.lowercased()
  }

  /// The text with its XML declaration saying UTF-8.
  private static func rewritingDeclaration(_ text: String) -> String {
    guard text.hasPrefix("<?xml"), let end = text.range(of: "?>") else { return text }
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>" + text[end.upperBound...]
  }
}
