/// The words the search index holds: maximal runs of letters, digits and non-ASCII bytes in the
/// folded text (``ArticleSearch/fold(_:into:cache:)``).
///
/// A query word is found in an article's folded text only if its longest run is inside one of
/// the article's words; so the articles of the index words holding that run are a superset of
/// the matches, which the matcher then checks on the text itself: the index narrows, never
/// decides, and the matching rules stay those of ``ArticleSearch``.
enum SearchTokens {
  /// Whether `byte` belongs to a word (UTF-8 lead and continuation bytes do).
  @inline(__always)
  static func isWordByte(_ byte: UInt8) -> Bool {
    byte >= 0x80 || (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
  }

  /// Adds the words of `folded` to `words`, each behind `marker` when given (a field's words,
  /// ``IndexRun/Field``).
  static func collect(_ folded: [UInt8], marker: UInt8? = nil, into words: inout Set<[UInt8]>) {
    var word: [UInt8] = []
    forEachWord(in: folded, marker: marker, word: &word) { words.insert($0) }
  }

  /// Calls `body` with each word of `folded` in turn, behind `marker` when given, made in `word`
  /// (a buffer kept from one word to the next: a word already known costs no allocation).
  static func forEachWord(
    in folded: [UInt8], marker: UInt8?, word: inout [UInt8], _ body: ([UInt8]) -> Void
  ) {
    forEachRun(in: folded) { range in
      word.removeAll(keepingCapacity: true)
      if let marker { word.append(marker) }
      word.append(contentsOf: folded[range])
      body(word)
    }
  }

  /// Calls `body` with the range of each maximal run of word bytes, in order.
  static func forEachRun(in folded: [UInt8], _ body: (Range<Int>) -> Void) {
    var start = -1
    for index in 0...folded.count {
      let inWord = index < folded.count && isWordByte(folded[index])
      if inWord, start < 0 {
        start = index
      } else if !inWord, start >= 0 {
        body(start..<index)
        start = -1
      }
    }
  }
}
