import Foundation

/// Case- and diacritic-insensitive search over titles, descriptions and content.
public enum ArticleSearch {
  /// The articles containing every one of `words`, newest first (undated last).
  public static func matching(_ words: [String], in articles: [Article]) -> [Article] {
    var cache: [Unicode.Scalar: [UInt8]] = [:]
    let needles = words.map { fold($0, cache: &cache) }.filter { !$0.isEmpty }
    guard !needles.isEmpty else { return [] }
    return articles.filter { article in
      let haystack = fold(
        [article.title, article.description ?? "", article.content ?? ""].joined(separator: "\n"),
        cache: &cache)
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

  /// Lower-cased UTF-8 without diacritics. ASCII is lower-cased in place; each other character is
  /// folded by Foundation once per search and then looked up: folding whole strings costs tens of
  /// microseconds each, which added up to most of a search over 10,000 articles.
  static func fold(_ text: String, cache: inout [Unicode.Scalar: [UInt8]]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      if scalar.isASCII {
        let byte = UInt8(scalar.value)
        bytes.append((0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
      } else if let folded = cache[scalar] {
        bytes += folded
      } else {
        let folded = Array(
          String(scalar).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .utf8)
        cache[scalar] = folded
        bytes += folded
      }
    }
    return bytes
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
