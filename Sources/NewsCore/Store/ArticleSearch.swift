import Foundation

/// Case- and diacritic-insensitive search over titles, descriptions and content.
public enum ArticleSearch {
  /// The articles containing every one of `words`, newest first (undated last).
  public static func matching(_ words: [String], in articles: [Article]) -> [Article] {
    var cache: [Unicode.Scalar: [UInt8]] = [:]
    let needles = words.map { fold($0, cache: &cache) }.filter { !$0.isEmpty }
    guard !needles.isEmpty else { return [] }
    var haystack: [UInt8] = []
    return articles.filter { article in
      haystack.removeAll(keepingCapacity: true)
      for field in [article.title, article.description, article.content] {
        guard let field else { continue }
        fold(field, into: &haystack, cache: &cache)
        haystack.append(0x0A)
      }
      return needles.allSatisfy { contains(haystack, $0) }
    }.sorted { lhs, rhs in
      switch (lhs.publishedAt, rhs.publishedAt) {
      case (let l?, let r?): return l != r ? l > r : lhs.id < rhs.id
      case (.some, nil): return true
      case (nil, .some): return false
      case (nil, nil): return lhs.id < rhs.id
      }
    }
  }

  /// Lower-cased UTF-8 without diacritics.
  static func fold(_ text: String, cache: inout [Unicode.Scalar: [UInt8]]) -> [UInt8] {
    var bytes: [UInt8] = []
    fold(text, into: &bytes, cache: &cache)
    return bytes
  }

  /// Appends `text` folded to `bytes`. ASCII bytes are lower-cased in place; each other
  /// character is folded by Foundation once per search and then looked up: folding whole strings
  /// cost tens of microseconds each, which added up to most of a search over 10,000 articles.
  static func fold(
    _ text: String, into bytes: inout [UInt8], cache: inout [Unicode.Scalar: [UInt8]]
  ) {
    var text = text
    text.withUTF8 { utf8 in
      var index = 0
      while index < utf8.count {
        let byte = utf8[index]
        if byte < 0x80 {
          bytes.append((0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
          index += 1
          continue
        }
        // A multi-byte character: its length from the lead byte (the string is valid UTF-8).
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
        let end = min(index + length, utf8.count)
        let character = String(
          decoding: UnsafeBufferPointer(rebasing: utf8[index..<end]), as: UTF8.self)
        for scalar in character.unicodeScalars {
          if let folded = cache[scalar] {
            bytes += folded
          } else {
            let folded = Array(
              String(scalar).folding(
                options: [.caseInsensitive, .diacriticInsensitive], locale: nil
              )
              .utf8)
            cache[scalar] = folded
            bytes += folded
          }
        }
        index = end
      }
    }
  }

  private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard let first = needle.first, needle.count <= haystack.count else {
      return needle.isEmpty
    }
    return haystack.withUnsafeBufferPointer { hay in
      needle.withUnsafeBufferPointer { pin in
        var start = 0
        let last = hay.count - pin.count
        while start <= last {
          if hay[start] == first {
            var index = 1
            while index < pin.count, hay[start + index] == pin[index] { index += 1 }
            if index == pin.count { return true }
          }
          start += 1
        }
        return false
      }
    }
  }
}
