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

  /// Describes a `date` to come: `in 40s`, `in 5m`, `in 3h`, `in 2d`, and for more than a week
  /// `on 27 Mar 2019` (UTC). A date past reads `now`.
  public static func until(_ date: Date, now: Date) -> String {
    let seconds = CivilDate.clampedSeconds(date) - CivilDate.clampedSeconds(now)
    switch seconds {
    case ..<1: return "now"
    case ..<60: return "in \(seconds)s"
    case ..<3600: return "in \((seconds + 59) / 60)m"
    case ..<86_400: return "in \((seconds + 3599) / 3600)h"
    case ..<(7 * 86_400): return "in \((seconds + 86_399) / 86_400)d"
    default: return "on " + DayFormat.short(date)
    }
  }
}
