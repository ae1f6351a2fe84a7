import Foundation

/// Case- and diacritic-insensitive search over titles, descriptions and content.
public enum ArticleSearch {
  /// The articles containing every one of `words`, newest first (undated last).
  public static func matching(_ words: [String], in articles: [Article]) -> [Article] {
    guard var matcher = Matcher(words) else { return [] }
    return newestFirst(
      articles.filter { matcher.matches([$0.title, $0.description, $0.content]) })
  }

  /// Newest first; undated last; ties by id.
  static func newestFirst(_ articles: [Article]) -> [Article] {
    articles.sorted { lhs, rhs in
      switch (lhs.publishedAt, rhs.publishedAt) {
      case (let l?, let r?): return l != r ? l > r : lhs.id < rhs.id
      case (.some, nil): return true
      case (nil, .some): return false
      case (nil, nil): return lhs.id < rhs.id
      }
    }
  }

  /// Decides whether an article's text holds every word: the fields are folded, one after the
  /// other each followed by a line break, into one buffer the needles are looked for in.
  struct Matcher {
    private let needles: [[UInt8]]
    private var cache: [Unicode.Scalar: [UInt8]] = [:]
    private var haystack: [UInt8] = []

    /// The longest run of each word looked for.
    var wordBranches: [[IndexRun]] { [needles.compactMap { IndexRun(word: $0) }] }

    /// `nil` when no word has anything to look for.
    init?(_ words: [String]) {
      var cache: [Unicode.Scalar: [UInt8]] = [:]
      needles = words.map { ArticleSearch.fold($0, cache: &cache) }.filter { !$0.isEmpty }
      guard !needles.isEmpty else { return nil }
      self.cache = cache
    }

    /// Whether `fields` (title, description, content) hold every word.
    mutating func matches(_ fields: [String?]) -> Bool {
      haystack.removeAll(keepingCapacity: true)
      for field in fields {
        guard var field else { continue }
        field.withUTF8 { ArticleSearch.fold($0, into: &haystack, cache: &cache) }
        haystack.append(0x0A)
      }
      return needles.allSatisfy { ArticleSearch.contains(haystack, $0) }
    }

    /// The same, on the fields' UTF-8 bytes as they stand in a file (valid, without escapes).
    mutating func matches(
      utf8 title: UnsafeBufferPointer<UInt8>?, _ description: UnsafeBufferPointer<UInt8>?,
      _ content: UnsafeBufferPointer<UInt8>?
    ) -> Bool {
      haystack.removeAll(keepingCapacity: true)
      for field in [title, description, content] {
        guard let field else { continue }
        ArticleSearch.fold(field, into: &haystack, cache: &cache)
        haystack.append(0x0A)
      }
      return needles.allSatisfy { ArticleSearch.contains(haystack, $0) }
    }
  }

  /// Lower-cased UTF-8 without diacritics.
  static func fold(_ text: String, cache: inout [Unicode.Scalar: [UInt8]]) -> [UInt8] {
    var bytes: [UInt8] = []
    fold(text, into: &bytes, cache: &cache)
    return bytes
  }

  /// Appends `text` folded to `bytes`.
  static func fold(
    _ text: String, into bytes: inout [UInt8], cache: inout [Unicode.Scalar: [UInt8]]
  ) {
    var text = text
    text.withUTF8 { fold($0, into: &bytes, cache: &cache) }
  }

  /// Appends valid UTF-8 `utf8` folded to `bytes`. ASCII bytes are lower-cased in place; each
  /// other character is folded by Foundation once per search and then looked up: folding whole
  /// strings cost tens of microseconds each, which added up to most of a search over 10,000
  /// articles.
  static func fold(
    _ utf8: UnsafeBufferPointer<UInt8>, into bytes: inout [UInt8],
    cache: inout [Unicode.Scalar: [UInt8]]
  ) {
    var index = 0
    while index < utf8.count {
      let byte = utf8[index]
      if byte < 0x80 {
        bytes.append((0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
        index += 1
        continue
      }
      // A multi-byte character: its length from the lead byte.
      let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
      let end = min(index + length, utf8.count)
      let character = String(
        decoding: UnsafeBufferPointer(rebasing: utf8[index..<end]), as: UTF8.self)
      for scalar in character.unicodeScalars {
        if let folded = cache[scalar] {
          bytes += folded
        } else {
          let folded = Array(
            String(scalar).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
              .utf8)
          cache[scalar] = folded
          bytes += folded
        }
      }
      index = end
    }
  }

  static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
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
