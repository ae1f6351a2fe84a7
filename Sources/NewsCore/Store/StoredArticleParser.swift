import Foundation

/// A fast reader for the article files: a JSON array of flat objects whose values are strings,
/// numbers or `null`, as ``StoredArticle`` writes them.
///
/// Every search reads every stored article, and `JSONDecoder` spends most of a search's time on
/// it. This reader only accepts that exact shape and returns `nil` for anything else, so that the
/// caller falls back to `JSONDecoder`: it may be faster, never different. Fuzzing checks that both
/// agree whenever this one answers.
enum StoredArticleParser {
  static func parse(_ bytes: [UInt8]) -> [StoredArticle]? {
    bytes.withUnsafeBufferPointer { buffer in
      var reader = Reader(bytes: buffer)
      return reader.articles()
    }
  }

  /// The records of an article file that hold every word of `matcher`, building strings only for
  /// those: a search over 10,000 articles matches on the file's own bytes. `nil` when the file is
  /// not exactly the store's shape (then the caller decodes it with `JSONDecoder`).
  static func matching(_ bytes: [UInt8], _ matcher: inout ArticleSearch.Matcher)
    -> [StoredArticle]?
  {
    var local = matcher
    defer { matcher = local }
    return select(
      bytes, raw: { local.matches(utf8: $0.title, $0.description, $0.content) },
      full: { local.matches([$0.article.title, $0.article.description, $0.article.content]) })
  }

  /// The records whose id is one of `ids`, building only those (for listings: 20 of 10,000).
  static func records(_ bytes: [UInt8], ids: Set<String>) -> [StoredArticle]? {
    let wanted = Set(ids.map { Array($0.utf8) })
    return select(
      bytes, raw: { $0.id.map { wanted.contains(Array($0)) } ?? false },
      full: { ids.contains($0.article.id) })
  }

  /// A record's fields as they stand in the file (valid UTF-8, no escapes).
  struct RawFields {
    var id: UnsafeBufferPointer<UInt8>?
    var title: UnsafeBufferPointer<UInt8>?
    var description: UnsafeBufferPointer<UInt8>?
    var content: UnsafeBufferPointer<UInt8>?
  }

  /// The records an article file holds that the predicates pick: `raw` on the file's bytes for
  /// records without escapes, `full` on the read record otherwise. `nil` when the file is not
  /// exactly the store's shape (then the caller decodes it with `JSONDecoder`).
  static func select(
    _ bytes: [UInt8], raw: (RawFields) -> Bool, full: (StoredArticle) -> Bool
  ) -> [StoredArticle]? {
    // Reading raw bytes needs them to be valid UTF-8, as JSONDecoder would require.
    guard String(validating: bytes, as: UTF8.self) != nil else { return nil }
    return bytes.withUnsafeBufferPointer { buffer in
      var reader = Reader(bytes: buffer)
      guard reader.consume(UInt8(ascii: "[")) else { return nil }
      var found: [StoredArticle] = []
      if reader.consume(UInt8(ascii: "]")) { return reader.finished() ? found : nil }
      repeat {
        guard let record = reader.selectRecord(raw: raw, full: full) else { return nil }
        if let record { found.append(record) }
      } while reader.consume(UInt8(ascii: ","))
      guard reader.consume(UInt8(ascii: "]")), reader.finished() else { return nil }
      return found
    }
  }

  private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    enum Value {
      case string(String)
      case number(Double)
      case null
    }

    mutating func articles() -> [StoredArticle]? {
      guard consume(UInt8(ascii: "[")) else { return nil }
      var articles: [StoredArticle] = []
      if consume(UInt8(ascii: "]")) { return finished() ? articles : nil }
      repeat {
        guard let article = article() else { return nil }
        articles.append(article)
      } while consume(UInt8(ascii: ","))
      guard consume(UInt8(ascii: "]")), finished() else { return nil }
      return articles
    }

    /// One record: `.some(nil)` when it does not match, `nil` when it is not the store's shape.
    mutating func selectRecord(
      raw: (RawFields) -> Bool, full: (StoredArticle) -> Bool
    ) -> StoredArticle?? {
      skipWhitespace()
      let start = index
      guard consume(UInt8(ascii: "{")) else { return nil }
      var id: Range<Int>?
      var title: Range<Int>?
      var description: Range<Int>?
      var content: Range<Int>?
      var escaped = false
      var seen: UInt16 = 0
      var present: UInt16 = 0
      if !consume(UInt8(ascii: "}")) {
        repeat {
          skipWhitespace()
          guard index < bytes.count, bytes[index] == UInt8(ascii: "\""),
            let (keyRange, keyEscaped) = rawString(), !keyEscaped,
            let bit = Self.keyBit(UnsafeBufferPointer(rebasing: bytes[keyRange])),
            seen & bit == 0, consume(UInt8(ascii: ":"))
          else { return nil }
          seen |= bit
          let isNumberKey = bit == Self.publishedAtBit || bit == Self.seenAtBit
          skipWhitespace()
          if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            guard !isNumberKey, let (range, hadEscape) = rawString() else { return nil }
            escaped = escaped || hadEscape
            switch bit {
            case Self.idBit: id = range
            case Self.titleBit: title = range
            case Self.descriptionBit: description = range
            case Self.contentBit: content = range
            default: break
            }
            present |= bit
          } else {
            switch value() {
            case .number?:
              guard isNumberKey else { return nil }
              present |= bit
            case .null?:
              break
            default:
              return nil
            }
          }
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "}")) else { return nil }
      }
      let end = index
      if escaped {
        // Escapes are rare: read the record fully and match on its strings.
        index = start
        guard let record = article() else { return nil }
        return full(record) ? .some(record) : .some(nil)
      }
      // id, provider, title and seenAt must be there and not null, as the full reader requires.
      guard present & Self.requiredBits == Self.requiredBits else { return nil }
      let bytes = self.bytes
      func field(_ range: Range<Int>?) -> UnsafeBufferPointer<UInt8>? {
        range.map { UnsafeBufferPointer(rebasing: bytes[$0]) }
      }
      let fields = RawFields(
        id: field(id), title: field(title), description: field(description),
        content: field(content))
      guard raw(fields) else { return .some(nil) }
      index = start
      guard let record = article() else { return nil }
      index = end
      return .some(record)
    }

    static let idBit: UInt16 = 1
    static let titleBit: UInt16 = 4
    static let descriptionBit: UInt16 = 8
    static let contentBit: UInt16 = 256
    static let publishedAtBit: UInt16 = 512
    static let seenAtBit: UInt16 = 1024
    static let requiredBits: UInt16 = 1 | 2 | 4 | 1024

    /// The bit of a known key, compared on its bytes (no string is built).
    static func keyBit(_ key: UnsafeBufferPointer<UInt8>) -> UInt16? {
      for (name, bit) in keyList where name.count == key.count {
        if name.withUnsafeBufferPointer({ $0.elementsEqual(key) }) { return bit }
      }
      return nil
    }

    static let keyList: [([UInt8], UInt16)] = keyBits.map { (Array($0.key.utf8), $0.value) }

    /// The bytes of a string value without its quotes, and whether it held an escape.
    mutating func rawString() -> (Range<Int>, Bool)? {
      index += 1
      let start = index
      var escaped = false
      while index < bytes.count {
        switch bytes[index] {
        case UInt8(ascii: "\""):
          let range = start..<index
          index += 1
          return (range, escaped)
        case UInt8(ascii: "\\"):
          escaped = true
          index += 2
        case 0..<0x20:
          return nil
        default:
          index += 1
        }
      }
      return nil
    }

    mutating func article() -> StoredArticle? {
      guard consume(UInt8(ascii: "{")) else { return nil }
      var id: String?
      var provider: String?
      var title: String?
      var description: String?
      var author: String?
      var source: String?
      var url: String?
      var imageURL: String?
      var content: String?
      var publishedAt: Double?
      var seenAt: Double?
      var seen: UInt16 = 0
      if !consume(UInt8(ascii: "}")) {
        repeat {
          guard case .string(let key)? = value(), consume(UInt8(ascii: ":")),
            let value = value(), let bit = Self.keyBits[key], seen & bit == 0
          else { return nil }  // unknown or repeated keys: let JSONDecoder judge (found by fuzzing)
          seen |= bit
          switch (key, value) {
          case (_, .null): break
          case ("id", .string(let text)): id = text
          case ("provider", .string(let text)): provider = text
          case ("title", .string(let text)): title = text
          case ("description", .string(let text)): description = text
          case ("author", .string(let text)): author = text
          case ("source", .string(let text)): source = text
          case ("url", .string(let text)): url = text
          case ("imageUrl", .string(let text)): imageURL = text
          case ("content", .string(let text)): content = text
          case ("publishedAt", .number(let number)): publishedAt = number
          case ("seenAt", .number(let number)): seenAt = number
          default: return nil  // an unknown key or a wrong type: let JSONDecoder judge
          }
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "}")) else { return nil }
      }
      guard let id, let provider, let title, let seenAt else { return nil }
      return StoredArticle(
        article: Article(
          id: id, provider: provider, title: title, description: description, author: author,
          source: source, url: url, imageURL: imageURL,
          publishedAt: publishedAt.map(Date.init(timeIntervalSince1970:)), content: content),
        seenAt: Date(timeIntervalSince1970: seenAt))
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    static func isJSONNumber(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
      var index = 0
      func digits() -> Int {
        let start = index
        while index < text.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[index]) {
          index += 1
        }
        return index - start
      }
      if index < text.count, text[index] == UInt8(ascii: "-") { index += 1 }
      guard index < text.count else { return false }
      if text[index] == UInt8(ascii: "0") {
        index += 1
      } else if digits() == 0 {
        return false
      }
      if index < text.count, text[index] == UInt8(ascii: ".") {
        index += 1
        guard digits() > 0 else { return false }
      }
      if index < text.count, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
        index += 1
        if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-")
        {
          index += 1
        }
        guard digits() > 0 else { return false }
      }
      return index == text.count
    }

    static let keyBits: [String: UInt16] = [
      "id": 1, "provider": 2, "title": 4, "description": 8, "author": 16, "source": 32, "url": 64,
      "imageUrl": 128, "content": 256, "publishedAt": 512, "seenAt": 1024,
    ]

    mutating func value() -> Value? {
      skipWhitespace()
      guard index < bytes.count else { return nil }
      switch bytes[index] {
      case UInt8(ascii: "\""): return string().map(Value.string)
      case UInt8(ascii: "n"):
        guard index + 4 <= bytes.count, bytes[index + 1] == UInt8(ascii: "u"),
          bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
        else { return nil }
        index += 4
        return .null
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        let start = index
        numberLoop: while index < bytes.count {
          switch bytes[index] {
          case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
            UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
            index += 1
          default:
            break numberLoop
          }
        }
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
        // JSON's own number grammar (no leading zeros, no '+', digits around '.'), and finite:
        // Double(_:) alone accepts more than JSONDecoder does (found by fuzzing).
        guard Self.isJSONNumber(slice),
          let number = Double(String(decoding: slice, as: UTF8.self)), number.isFinite
        else { return nil }
        return .number(number)
      default:
        return nil
      }
    }

    mutating func string() -> String? {
      index += 1  // the opening quote
      let start = index
      while index < bytes.count {
        switch bytes[index] {
        case UInt8(ascii: "\""):
          // Invalid UTF-8 is refused, as JSONDecoder refuses it, rather than repaired (found by
          // fuzzing).
          let text = String(
            validating: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
          index += 1
          return text
        case UInt8(ascii: "\\"):
          return escapedString(from: start)
        case 0..<0x20:
          return nil
        default:
          index += 1
        }
      }
      return nil
    }

    /// The slow path, for strings with escapes.
    mutating func escapedString(from start: Int) -> String? {
      var scalars: [UInt8] = Array(bytes[start..<index])
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""):
          return String(bytes: scalars, encoding: .utf8)
        case UInt8(ascii: "\\"):
          guard index < bytes.count else { return nil }
          let escape = bytes[index]
          index += 1
          switch escape {
          case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
          case UInt8(ascii: "b"): scalars.append(0x08)
          case UInt8(ascii: "f"): scalars.append(0x0C)
          case UInt8(ascii: "n"): scalars.append(0x0A)
          case UInt8(ascii: "r"): scalars.append(0x0D)
          case UInt8(ascii: "t"): scalars.append(0x09)
          case UInt8(ascii: "u"):
            guard var code = hex4() else { return nil }
            if (0xD800..<0xDC00).contains(code) {
              guard consume(UInt8(ascii: "\\"), skippingWhitespace: false),
                consume(UInt8(ascii: "u"), skippingWhitespace: false), let low = hex4(),
                (0xDC00..<0xE000).contains(low)
              else { return nil }
              code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(code) else { return nil }
            scalars += Array(String(Character(scalar)).utf8)
          default:
            return nil
          }
        case 0..<0x20:
          return nil
        default:
          scalars.append(byte)
        }
      }
      return nil
    }

    mutating func hex4() -> UInt32? {
      guard index + 4 <= bytes.count else { return nil }
      var value: UInt32 = 0
      for _ in 0..<4 {
        let byte = bytes[index]
        index += 1
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: return nil
        }
        value = value << 4 | UInt32(digit)
      }
      return value
    }

    mutating func consume(_ byte: UInt8, skippingWhitespace: Bool = true) -> Bool {
      if skippingWhitespace { skipWhitespace() }
      guard index < bytes.count, bytes[index] == byte else { return false }
      index += 1
      return true
    }

    mutating func skipWhitespace() {
      while index < bytes.count {
        switch bytes[index] {
        case 0x20, 0x0A, 0x0D, 0x09: index += 1
        default: return
        }
      }
    }

    mutating func finished() -> Bool {
      skipWhitespace()
      return index == bytes.count
    }
  }
}
