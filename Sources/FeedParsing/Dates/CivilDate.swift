import Foundation

/// A day of the proleptic Gregorian calendar, converted to and from days since 1970-01-01.
package struct CivilDate: Equatable {
  package var year: Int
  package var month: Int
  package var day: Int

  package init(year: Int, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  // Howard Hinnant's days_from_civil / civil_from_days: exact for every representable day.
  package init(daysSinceEpoch days: Int) {
    let z = days + 719_468
    let era = z.floorDiv(146_097)
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  }

  package var daysSinceEpoch: Int {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = shiftedYear.floorDiv(400)
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// Whole seconds since 1970 of `date`, clamped to ±10^12 (about ±31,000 years) so that calendar
  /// arithmetic on any `Date`, however absurd, cannot overflow.
  package static func clampedSeconds(_ date: Date) -> Int {
    let seconds = date.timeIntervalSince1970
    guard seconds.isFinite else { return 0 }
    return Int(floor(min(max(seconds, -1e12), 1e12)))
  }

  /// Day of the week, 0 for Sunday.
  package var weekday: Int { (daysSinceEpoch + 4).floorMod(7) }

  package static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }
}
