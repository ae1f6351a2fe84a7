import FeedParsing
import Foundation

extension RefreshBounds {
  /// How long `source`'s answer in `entry` is kept, and why.
  func lifetime(_ source: FeedSource, _ entry: FeedCacheEntry?) -> (
    seconds: Double, reason: NextFetch.Reason
  ) {
    if source.ttlIsExplicit { return (source.ttl.seconds, .ttl) }
    let floor = minimum ?? source.ttl.seconds
    let ceiling = max(maximum, floor)
    var chosen: (seconds: Double, reason: NextFetch.Reason) = (floor, .noDates)
    if let rate = entry?.postsEvery {
      chosen = (min(max(rate, floor), ceiling), .posts(every: rate))
    }
    if let hint = entry?.hint {
      let seconds = min(hint.seconds, max(Self.longestHint, ceiling))
      if seconds > chosen.seconds { chosen = (seconds, .hint(hint.kind)) }
    }
    return chosen
  }
}
