/// How far apart two words are, for "did you mean …?" (the command line's options and values,
/// the query language's fields): the Levenshtein distance, by characters.
package enum EditDistance {
  /// The fewest insertions, deletions and substitutions that make `a` into `b`.
  package static func between(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }

  /// "Did you mean …?": the candidate closest to `word`, if it is close enough to be a typo
  /// (within a third of its length, at least 2), or a long enough prefix of one.
  package static func closest(to word: String, in candidates: [String]) -> String? {
    let scored = candidates.map { ($0, between(word.lowercased(), $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    let tolerance = max(2, word.count / 3)
    if best.1 <= tolerance { return best.0 }
    // A prefix of a long name (`--sour` for `--source`) counts too.
    return candidates.first { $0.hasPrefix(word) && word.count >= 3 }
  }
}
