import FeedParsing
import Foundation
import NewsCore

/// When a source is asked next, and why, as `news sources` says it (`next in 3 h: posts every
/// ~9 h`, `due: Cache-Control`) and as its JSON names it (``reasonName(_:)``).
enum NextFetchText {
  /// The words of `next`, seen at `now`.
  static func describe(_ next: NextFetch, now: Date) -> String {
    switch next.reason {
    case .account: return "fetched by its account's sync"
    case .disabled: return "not asked while disabled"
    case .everyRun: return "answered every run"
    case .neverFetched: return "asked by the next run"
    default: break
    }
    guard let at = next.at else { return "asked by the next run" }
    let seconds = at.timeIntervalSince(now)
    let when = seconds <= 0 ? "due" : "next in " + duration(seconds)
    return when + ": " + why(next)
  }

  /// Why, in words.
  static func why(_ next: NextFetch) -> String {
    switch next.reason {
    case .ttl: return "its ttl" + (next.interval.map { " (" + duration($0) + ")" } ?? "")
    case .posts(let every):
      var words = "posts every ~" + duration(every)
      if let interval = next.interval, abs(interval - every) >= 1 {
        words +=
          interval > every
          ? " (\(duration(interval)) at least)" : " (\(duration(interval)) at most)"
      }
      return words
    case .hint(let kind): return hint(kind)
    case .noDates: return "no dated items to go by"
    case .retryAfter: return "the server asked to wait (Retry-After)"
    case .failing(let runs): return "failing (\(runs.counted("run")) in a row)"
    case .neverFetched: return "never fetched"
    case .everyRun: return "every run"
    case .account: return "its account's sync"
    case .disabled: return "disabled"
    }
  }

  /// Who said how long an answer stays the same.
  static func hint(_ kind: FreshnessHint.Kind) -> String {
    switch kind {
    case .feedTTL: return "the feed's <ttl>"
    case .updatePeriod: return "the feed's sy:updatePeriod"
    case .cacheControl: return "Cache-Control"
    case .expires: return "Expires"
    }
  }

  /// The reason's name in `news sources --json` (`nextFetchReason`).
  static func reasonName(_ reason: NextFetch.Reason) -> String {
    switch reason {
    case .ttl: return "ttl"
    case .posts: return "posts"
    case .hint(let kind): return kind.rawValue
    case .noDates: return "noDates"
    case .retryAfter: return "retryAfter"
    case .failing: return "failing"
    case .neverFetched: return "neverFetched"
    case .everyRun: return "everyRun"
    case .account: return "account"
    case .disabled: return "disabled"
    }
  }

  /// `45 s`, `40 min`, `3 h`, `2.5 h`, `3 d`, `6 yr`: the unit that reads best (a feed that
  /// last posted years apart says so in years, not in thousands of days).
  static func duration(_ seconds: Double) -> String {
    func rounded(_ value: Double) -> String {
      guard value < 10 else { return String(Int(value.rounded())) }
      // One decimal, but `3 h` rather than `3.0 h` for 2.97 h.
      let text = DecimalText.oneDecimal(value)
      return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
    switch seconds {
    case ..<90: return "\(Int(seconds.rounded())) s"
    case ..<(90 * 60): return "\(Int((seconds / 60).rounded())) min"
    case ..<(48 * 3600): return rounded(seconds / 3600) + " h"
    case ..<(730 * 86_400): return rounded(seconds / 86_400) + " d"
    default: return rounded(seconds / (365.25 * 86_400)) + " yr"
    }
  }
}
