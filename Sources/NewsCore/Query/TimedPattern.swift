import Foundation

/// A regular expression matched within a time limit: a pattern that backtracks without end
/// (`(a+)+$`) is stopped, not waited for. Queries' `/…/` and ignore rules' `regex` use it.
enum TimedPattern {
  /// The longest one regular expression may take on one article.
  static let timeLimit: Duration = .milliseconds(100)

  /// Whether `expression` matches in `text`; `nil` when it took longer than ``timeLimit``
  /// (stopped then: matching reports its progress, and is told to stop).
  static func matches(_ expression: NSRegularExpression, _ text: String) -> Bool? {
    let clock = ContinuousClock()
    let start = clock.now
    var found = false
    var slow = false
    expression.enumerateMatches(
      in: text, options: [.reportProgress], range: NSRange(text.startIndex..., in: text)
    ) { match, _, stop in
      if match != nil {
        found = true
        stop.pointee = true
      } else if clock.now - start > timeLimit {
        slow = true
        stop.pointee = true
      }
    }
    return found ? true : (slow ? nil : false)
  }
}
