import Foundation

/// "3h ago": how long ago something happened, in the fewest characters that stay clear.
public enum RelativeTime {
  /// Describes `date` relative to `now`: `just now`, `5m ago`, `3h ago`, `2d ago`, and for more than
  /// a week the day itself (`27 Mar 2019`, UTC). Future dates (clock skew) read `just now`.
  public static func describe(_ date: Date, now: Date) -> String {
    let seconds = CivilDate.clampedSeconds(now) - CivilDate.clampedSeconds(date)
    switch seconds {
    case ..<60: return "just now"
    case ..<3600: return "\(seconds / 60)m ago"
    case ..<86_400: return "\(seconds / 3600)h ago"
    case ..<(7 * 86_400): return "\(seconds / 86_400)d ago"
    default: return DayFormat.short(date)
    }
  }
}

/// Locale-independent day formats, computed in UTC so the same instant reads the same everywhere.
public enum DayFormat {
  static let monthNames = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
  ]
  static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

  static func civil(_ date: Date) -> CivilDate {
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
