import Foundation

/// Which articles have been read: article id → when it was marked read, or last listed while
/// read. One small file of ids (`read`), so a list costs one read of it, not a field per stored
/// article.
///
/// A mark outlives its article's retention: it is dropped only once it has been neither set nor
/// listed for ``lifetime(for:)`` (90 days, or the retention age when that is longer), so an item
/// a feed keeps listing stays read however long it is listed.
struct ReadMarks: Codable, Sendable, Equatable {
  var marks: [String: Double] = [:]

  /// How long a mark lives without being set or listed again.
  static func lifetime(for retention: RetentionPolicy) -> Double {
    max(90 * 86_400, retention.maximumAge.seconds)
  }

  /// A listed mark older than this is stamped again (so at most one write a day for it).
  static let restampAfter: Double = 86_400

  /// Drops the marks older than `lifetime` at `now`.
  mutating func prune(now: Date, lifetime: Double) {
    let oldest = now.timeIntervalSince1970 - lifetime
    marks = marks.filter { $0.value >= oldest }
  }
}
