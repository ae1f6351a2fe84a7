import Foundation

/// A range of dates, `from` inclusive, `until` exclusive; a `nil` bound is open.
struct DateRange: Sendable, Equatable {
  var from: Date?
  var until: Date?

  /// Whether `date` is in the range.
  func contains(_ date: Date) -> Bool {
    (from.map { date >= $0 } ?? true) && (until.map { date < $0 } ?? true)
  }
}
