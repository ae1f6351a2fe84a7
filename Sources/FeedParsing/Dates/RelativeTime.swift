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
