import FeedParsing

/// "Did you mean …?": the closest known word to a mistyped one.
enum Suggestion {
  /// The candidate closest to `word` by edit distance, if it is close enough to be a typo.
  static func closest(to word: String, in candidates: [String]) -> String? {
    let scored = candidates.map { ($0, EditDistance.between(word.lowercased(), $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    let tolerance = max(2, word.count / 3)
    if best.1 <= tolerance { return best.0 }
    // A prefix of a long name (`--page` for `--page-size` is handled above; `--sour`) counts too.
    return candidates.first { $0.hasPrefix(word) && word.count >= 3 }
  }
}
