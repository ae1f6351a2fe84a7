import Foundation

/// Locale-independent day formats, computed in UTC so the same instant reads the same everywhere.
public enum DayFormat {
  package static let monthNames = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
  ]
  package static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

  package static func civil(_ date: Date) -> CivilDate {
    CivilDate(daysSinceEpoch: CivilDate.clampedSeconds(date).floorDiv(86_400))
  }

  /// `27 Mar 2019`.
  public static func short(_ date: Date) -> String {
    let day = civil(date)
    return "\(day.day) \(monthNames[day.month - 1].prefix(3)) \(day.year)"
  }

  /// `1 January 1970`.
  public static func long(_ date: Date) -> String {
    let day = civil(date)
    return "\(day.day) \(monthNames[day.month - 1]) \(day.year)"
  }

  /// `Wed, Jul 8, '20`.
  public static func compact(_ date: Date) -> String {
    let day = civil(date)
    let year = String(format: "%02ld", day.year.floorMod(100))
    return
      "\(weekdayNames[day.weekday]), \(monthNames[day.month - 1].prefix(3)) \(day.day), '\(year)"
  }
}
