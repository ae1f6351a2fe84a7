/// "Did you mean …?": the closest known word to a mistyped one.
enum Suggestion {
  /// The candidate closest to `word` by edit distance, if it is close enough to be a typo.
  static func closest(to word: String, in candidates: [String]) -> String? {
    let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    let tolerance = max(2, word.count / 3)
    if best.1 <= tolerance { return best.0 }
    // A prefix of a long name (`--page` for `--page-size` is handled above; `--sour`) counts too.
    return candidates.first { $0.hasPrefix(word) && word.count >= 3 }
  }

  /// Levenshtein distance.
  static func distance(_ a: String, _ b: String) -> Int {
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
}
