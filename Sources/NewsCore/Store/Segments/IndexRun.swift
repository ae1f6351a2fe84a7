/// What the search index is asked for: a run of word bytes every match holds inside one of its
/// index words (``SearchTokens``), and whether it is known to stand at a word's edge there.
///
/// A run is bounded before (after) when, in a match's folded text, the byte before (after) it
/// is not an ASCII letter or digit: a query word with a space or a sign beside the run (a
/// phrase, `"the ai"`), a regular expression's `\b`, `^`, `$` or literal sign beside it. In the
/// index word holding the run, the byte beside it is then a byte of a non-ASCII character (the
/// index keeps those inside words) or none at all; so `\bAI\b` looks for the index words `ai`,
/// `“ai”`, not `said`, and the index still only narrows (its words holding the run so are a
/// superset of the matches).
///
/// The index also holds the words of each record's author and categories, each behind its
/// field's marker byte (``Field``), so that `author:` and `category:` narrow too; a run is
/// looked for among the words of its own field only.
struct IndexRun: Hashable, Sendable {
  var bytes: [UInt8]
  var boundedBefore = false
  var boundedAfter = false
  var field = Field.text

  /// The part of a record whose words hold the run.
  enum Field: UInt8, Hashable, Sendable {
    /// The title, description and content (words without a marker).
    case text = 0
    /// The author: index words `0x01` + word.
    case author = 1
    /// The item categories: index words `0x02` + word.
    case category = 2

    /// The byte an index word of this field starts with, `nil` for text.
    var marker: UInt8? { self == .text ? nil : rawValue }
  }

  /// The longest run of a folded query word, bounded where the word goes on beside it; `nil`
  /// when the word holds none (then the index cannot narrow the search).
  init?(word folded: [UInt8], field: Field = .text) {
    var best: Range<Int>?
    SearchTokens.forEachRun(in: folded) { if $0.count > best?.count ?? 0 { best = $0 } }
    guard let best else { return nil }
    bytes = Array(folded[best])
    boundedBefore = best.lowerBound > 0
    boundedAfter = best.upperBound < folded.count
    self.field = field
  }

  init(
    bytes: [UInt8], boundedBefore: Bool = false, boundedAfter: Bool = false, field: Field = .text
  ) {
    self.bytes = bytes
    self.boundedBefore = boundedBefore
    self.boundedAfter = boundedAfter
    self.field = field
  }

  /// Whether the index word `word` holds the run as it is bounded.
  func isIn(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
    bytes.withUnsafeBufferPointer { isIn(word, range: 0..<word.count, needle: $0) }
  }

  /// Whether the index word at `range` of `text` holds the run (`needle`: its bytes) as it is
  /// bounded.
  @inline(__always)
  func isIn(
    _ text: UnsafeBufferPointer<UInt8>, range: Range<Int>, needle: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    guard let first = needle.first, range.count >= needle.count else { return false }
    var start = range.lowerBound
    let last = range.upperBound - needle.count
    while start <= last {
      if text[start] == first {
        var index = 1
        while index < needle.count, text[start + index] == needle[index] { index += 1 }
        if index == needle.count,
          !boundedBefore || start == range.lowerBound || text[start - 1] >= 0x80,
          !boundedAfter || start + needle.count == range.upperBound
            || text[start + needle.count] >= 0x80
        {
          return true
        }
      }
      start += 1
    }
    return false
  }
}
