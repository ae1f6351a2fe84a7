import Foundation

/// The dates feeds write: RFC 822/1123 in its common variants (`Fri, 12 Dec 2008 02:36:10 +0100`,
/// `GMT`, `EST`/`PDT` and the other named zones, single-digit days, no seconds, no weekday) and
/// RFC 3339 (`2008-12-30T20:04:15Z`). Anything else is `nil`: the item is kept, undated.
public enum FeedDate {
  /// The date `text` names, or `nil`.
  public static func parse(_ text: String) -> Date? {
    let trimmed = String(text.trimmingWhitespace())
    if let first = trimmed.first, first.isNumber, trimmed.count >= 10,
      trimmed[trimmed.index(trimmed.startIndex, offsetBy: 4)] == "-"
    {
      return ISO8601.date(from: trimmed)
    }
    return rfc822(trimmed)
  }

  private static let months = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
  ]

  /// Named zones as hours from UTC.
  private static let zones: [String: Int] = [
    "ut": 0, "utc": 0, "gmt": 0, "z": 0, "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7,
    "mdt": -6, "pst": -8, "pdt": -7, "bst": 1, "cet": 1, "cest": 2, "eet": 2, "eest": 3,
    "jst": 9, "ist": 5,
  ]

  private static func rfc822(_ text: String) -> Date? {
    var words = text.replacingOccurrences(of: ",", with: " ").split(separator: " ").map {
      $0.lowercased()
    }
    // The weekday is optional.
    if let first = words.first, Int(first) == nil { words.removeFirst() }
    guard words.count >= 4, let day = Int(words[0]), (1...31).contains(day),
      let month = months.firstIndex(of: String(words[1].prefix(3))),
      var year = Int(words[2])
    else { return nil }
    if year < 100 { year += year < 50 ? 2000 : 1900 }
    let time = words[3].split(separator: ":").map { Int($0) }
    guard time.count >= 2, time.allSatisfy({ $0 != nil }) else { return nil }
    let (hour, minute, second) = (time[0]!, time[1]!, time.count > 2 ? time[2]! : 0)
    guard (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else {
      return nil
    }
    var offset = 0
    if words.count > 4 {
      let zone = words[4]
      if let hours = zones[zone] {
        offset = hours * 3600
      } else if let sign = zone.first, sign == "+" || sign == "-", zone.count == 5,
        let value = Int(zone.dropFirst())
      {
        offset = (value / 100 * 3600 + value % 100 * 60) * (sign == "-" ? -1 : 1)
      } else {
        return nil
      }
    }
    guard (1...CivilDate.daysIn(month: month + 1, year: year)).contains(day) else { return nil }
    let days = CivilDate(year: year, month: month + 1, day: day).daysSinceEpoch
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
    return Date(timeIntervalSince1970: Double(seconds))
  }
}
