import Foundation

/// The dates feeds write, and the ways they get them wrong.
///
/// - RFC 822/1123/2822 and what real feeds make of it: weekday or not (any case, full names),
///   full or abbreviated month names, one- or two-digit days, two-digit years (00–49 are 2000s,
///   50–99 the 1900s), no seconds, no time at all, `15-Jan-2006`, a month before the day, every
///   zone name RFC 822 knows (`UT`, `GMT`, `Z`, `EST`…`PDT`, the military letters `A`–`Z`) and
///   the common ones it does not (`ET`, `MET`, `CEST`, `JST`…), numeric offsets as `+0100`,
///   `-01:01` or `+01`, and a trailing comment (`+0000 (UTC)`). No zone is UTC.
/// - ISO 8601 / RFC 3339 / the W3C date note: `2006`, `2006-01`, `2006-01-08`, `20060108`,
///   `2006-01-08T10:11`, seconds with fractions, `Z` or `±hh:mm`, `±hhmm`, `±hh`, a space for
///   the `T`, compact `20060110T111213Z`. A missing part is its first (`2006-01` is 1 January);
///   a missing zone is UTC.
/// - asctime: `Wed Jan 11 12:13:14 2006`, with or without a zone before the year.
///
/// Anything else, or anything out of range (31 February, 25 o'clock), is `nil`: an unparseable
/// date is absent, never a wrong instant.
public enum FeedDate {
  /// The date `text` names, or `nil`.
  public static func parse(_ text: String) -> Date? {
    let trimmed = String(text.trimmingWhitespace())
    guard !trimmed.isEmpty, trimmed.utf8.count < 100 else { return nil }
    if let first = trimmed.unicodeScalars.first, first.isASCIIDigit,
      let date = iso8601(trimmed)
    {
      return date
    }
    return commonRFC822(trimmed) ?? rfc822(trimmed)
  }

  // MARK: ISO 8601

  private static func iso8601(_ text: String) -> Date? {
    var scanner = Scanner(text)
    guard let year = scanner.digits(exactly: 4) else { return nil }
    var month = 1
    var day = 1
    let dashed = scanner.skip("-")
    if let value = scanner.digits(exactly: 2) {
      month = value
      if (dashed && scanner.skip("-")) || (!dashed && scanner.peekDigit) {
        guard let value = scanner.digits(exactly: 2) else { return nil }
        day = value
      }
    } else if dashed {
      return nil
    }
    var seconds = 0
    var offset = 0
    if !scanner.isAtEnd {
      guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" ") else { return nil }
      scanner.skipSpaces()
      guard let hour = scanner.digits(exactly: 2) else { return nil }
      let colon = scanner.skip(":")
      let minute = scanner.digits(exactly: 2) ?? (colon ? nil : 0)
      guard let minute else { return nil }
      var second = 0
      if (colon && scanner.skip(":")) || (!colon && scanner.peekDigit) {
        guard let value = scanner.digits(exactly: 2) else { return nil }
        second = value
        if scanner.skip(".") || scanner.skip(",") { scanner.skipDigits() }
      }
      guard let time = timeOfDay(hour, minute, second) else { return nil }
      seconds = time
      scanner.skipSpaces()
      if !scanner.isAtEnd {
        guard let zone = numericZone(scanner.rest) ?? namedZone(scanner.rest) else { return nil }
        offset = zone
      }
    }
    return date(year: year, month: month, day: day, seconds: seconds, offset: offset)
  }

  // MARK: RFC 822 and asctime

  /// `Mon, 02 Jan 2006 15:04:05 +0000` (the weekday and the seconds optional; `GMT`, `UT`,
  /// `UTC`, `Z` or `±hhmm`), the shape nearly every feed writes, read from its bytes: the
  /// general reader below goes word by word through `Character`s, and took a tenth of a cold
  /// refresh's time. `nil` for any other shape, which the general reader takes; what this one
  /// reads, the general one reads the same.
  static func commonRFC822(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    var index = 0
    func skip(_ byte: UInt8) -> Bool {
      guard index < bytes.count, bytes[index] == byte else { return false }
      index += 1
      return true
    }
    func digits(_ count: ClosedRange<Int>) -> Int? {
      var value = 0
      var read = 0
      while index < bytes.count, read < count.upperBound, (48...57).contains(bytes[index]) {
        value = value * 10 + Int(bytes[index] - 48)
        index += 1
        read += 1
      }
      return count.contains(read) ? value : nil
    }
    func letters(_ count: Int) -> String? {
      guard index + count <= bytes.count else { return nil }
      let word = bytes[index..<index + count]
      guard word.allSatisfy({ (65...90).contains($0) || (97...122).contains($0) }) else {
        return nil
      }
      index += count
      return String(decoding: word.map { $0 | 0x20 }, as: UTF8.self)
    }
    if let first = bytes.first, !(48...57).contains(first) {
      guard let weekday = letters(3), weekdays.contains(weekday), skip(44), skip(32) else {
        return nil
      }
    }
    guard let day = digits(1...2), skip(32), let name = letters(3),
      let month = months.firstIndex(of: name), skip(32), let year = digits(4...4), skip(32),
      let hour = digits(2...2), skip(58), let minute = digits(2...2)
    else { return nil }
    var second = 0
    if skip(58) {
      guard let value = digits(2...2) else { return nil }
      second = value
    }
    guard skip(32), index < bytes.count else { return nil }
    var offset = 0
    if bytes[index] == 43 || bytes[index] == 45 {
      let east = bytes[index] == 43
      index += 1
      guard let value = digits(4...4), index == bytes.count, value / 100 <= 14, value % 100 < 60
      else { return nil }
      offset = (value / 100 * 3600 + value % 100 * 60) * (east ? 1 : -1)
    } else {
      let zone = String(decoding: bytes[index...].map { $0 | 0x20 }, as: UTF8.self)
      guard ["gmt", "ut", "utc", "z"].contains(zone) else { return nil }
    }
    guard let time = timeOfDay(hour, minute, second) else { return nil }
    return date(year: year, month: month + 1, day: day, seconds: time, offset: offset)
  }

  /// Any date of RFC 822's family and asctime's, word by word (see the type's documentation).
  static func rfc822(_ text: String) -> Date? {
    var cleaned = text
    // A trailing comment: `+0000 (UTC)`.
    if let open = cleaned.firstIndex(of: "("), cleaned.last == ")" {
      cleaned = String(cleaned[..<open])
    }
    var words: [Substring] = []
    for word in cleaned.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }) {
      // `15-Jan-2006` and `Jan.` are words of their own.
      if word.contains(where: \.isLetter), word.contains(where: { $0 == "-" }),
        !word.hasPrefix("-")
      {
        words += word.split(separator: "-")
      } else {
        words.append(word.hasSuffix(".") ? word.dropLast() : word)
      }
    }
    var day: Int?
    var month: Int?
    var year: Int?
    var seconds: Int?
    var offset: Int?
    for (position, word) in words.enumerated() {
      let lower = word.lowercased()
      if word.first?.isNumber == true, word.contains(where: { $0 == ":" }) {
        guard seconds == nil, let (time, zone) = clock(String(word)) else { return nil }
        seconds = time
        if let zone { offset = zone }
      } else if word.allSatisfy(\.isNumber) {
        guard let number = Int(word) else { return nil }
        if word.count >= 3 || (day != nil && year == nil) {
          guard year == nil else { return nil }
          year = word.count <= 2 ? number + (number < 50 ? 2000 : 1900) : number
        } else if day == nil {
          day = number
        } else {
          return nil
        }
      } else if let value = monthNumber(lower) {
        guard month == nil else { return nil }
        month = value
      } else if position == 0, weekdays.contains(where: { lower.hasPrefix($0) }) {
        continue
      } else if let zone = numericZone(lower) ?? namedZone(lower) {
        guard offset == nil, seconds != nil || year != nil else { return nil }
        offset = zone
      } else if weekdays.contains(where: { lower.hasPrefix($0) }) || lower == "at" {
        continue
      } else {
        return nil
      }
    }
    guard let day, let month, var year else { return nil }
    if year < 100 { year += year < 50 ? 2000 : 1900 }
    return date(year: year, month: month, day: day, seconds: seconds ?? 0, offset: offset ?? 0)
  }

  /// `12:13`, `12:13:14`, `12:13:14.5`, `1:02:03`, with a zone glued on (`12:13:14Z`,
  /// `12:13:14+0100`): seconds into the day, and the zone's offset if one was glued on.
  private static func clock(_ word: String) -> (Int, Int?)? {
    var body = Substring(word)
    var zone: Int?
    if let split = body.firstIndex(where: { $0 == "+" || $0 == "-" || $0.isLetter }) {
      guard
        let value = numericZone(body[split...].lowercased())
          ?? namedZone(body[split...].lowercased())
      else { return nil }
      zone = value
      body = body[..<split]
    }
    let parts = body.split(separator: ":", omittingEmptySubsequences: false)
    guard (2...3).contains(parts.count), parts[0].count <= 2, parts[1].count == 2,
      let hour = Int(parts[0]), let minute = Int(parts[1])
    else { return nil }
    var second = 0
    if parts.count == 3 {
      let whole = parts[2].prefix { $0 != "." && $0 != "," }
      guard whole.count == 2, let value = Int(whole) else { return nil }
      second = value
    }
    guard let time = timeOfDay(hour, minute, second) else { return nil }
    return (time, zone)
  }

  // MARK: parts

  private static func timeOfDay(_ hour: Int, _ minute: Int, _ second: Int) -> Int? {
    guard (0...23).contains(hour) || (hour == 24 && minute == 0 && second == 0),
      (0...59).contains(minute), (0...60).contains(second)
    else { return nil }
    return hour * 3600 + minute * 60 + second
  }

  private static func date(year: Int, month: Int, day: Int, seconds: Int, offset: Int) -> Date? {
    guard (1...9999).contains(year), (1...12).contains(month),
      (1...CivilDate.daysIn(month: month, year: year)).contains(day)
    else { return nil }
    let days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
    return Date(timeIntervalSince1970: Double(days * 86_400 + seconds - offset))
  }

  /// `+0100`, `-01:01`, `+01`, `+1`: seconds east of UTC.
  private static func numericZone(_ text: String) -> Int? {
    guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
    let digits = text.dropFirst().filter { $0 != ":" }
    guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
      let value = Int(digits)
    else { return nil }
    let (hours, minutes) = digits.count <= 2 ? (value, 0) : (value / 100, value % 100)
    guard hours <= 14, minutes < 60 else { return nil }
    return (hours * 3600 + minutes * 60) * (sign == "-" ? -1 : 1)
  }

  /// Seconds east of UTC of a zone name (lower-case), or of `GMT+01:00`.
  private static func namedZone(_ name: String) -> Int? {
    if let hours = zones[name] { return Int(hours * 3600) }
    for prefix in ["gmt", "utc", "ut"] where name.hasPrefix(prefix) {
      if let offset = numericZone(String(name.dropFirst(prefix.count))) { return offset }
    }
    // Military letters (RFC 822): A–I and K–M east, N–Y west, Z UTC.
    guard name.count == 1, let letter = name.unicodeScalars.first, letter.isASCIILetter else {
      return nil
    }
    let value = Int(letter.value) - Int(UnicodeScalar("a").value)
    switch letter {
    case "a"..."i": return -(value + 1) * 3600
    case "k"..."m": return -value * 3600
    case "n"..."y": return (value - 12) * 3600
    case "z": return 0
    default: return nil
    }
  }

  /// Named zones, as hours east of UTC (what feeds write, RFC 822's and others').
  private static let zones: [String: Double] = [
    "ut": 0, "utc": 0, "gmt": 0, "z": 0, "wet": 0, "bst": 1, "ist": 5.5, "cet": 1, "met": 1,
    "mez": 1, "cest": 2, "mest": 2, "mesz": 2, "eet": 2, "eest": 3, "msk": 3, "jst": 9, "kst": 9,
    "hkt": 8, "sgt": 8, "awst": 8, "acst": 9.5, "aest": 10, "aedt": 11, "nzst": 12, "nzdt": 13,
    "est": -5, "edt": -4, "et": -5, "cst": -6, "cdt": -5, "ct": -6, "mst": -7, "mdt": -6,
    "mt": -7, "pst": -8, "pdt": -7, "pt": -8, "akst": -9, "akdt": -8, "hst": -10, "ast": -4,
    "adt": -3, "nst": -3.5, "ndt": -2.5, "brt": -3, "art": -3,
  ]

  private static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

  private static func monthNumber(_ word: String) -> Int? {
    guard word.count >= 3 else { return nil }
    let prefix = String(word.prefix(3))
    guard let index = months.firstIndex(of: prefix) else { return nil }
    // The whole word must be the month's name or a prefix of it (`Sept` too).
    let full = monthNames[index]
    return full.hasPrefix(word) || (index == 8 && word == "sept") ? index + 1 : nil
  }

  private static let months = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
  ]

  private static let monthNames = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
  ]

  /// Reads digits and separators off the front of a string.
  private struct Scanner {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    package init(_ text: String) {
      scalars = Array(text.unicodeScalars)
    }

    package var isAtEnd: Bool { index >= scalars.count }
    package var peekDigit: Bool { !isAtEnd && scalars[index].isASCIIDigit }
    package var rest: String {
      String(String.UnicodeScalarView(scalars[min(index, scalars.count)...])).lowercased()
    }

    package mutating func digits(exactly count: Int) -> Int? {
      guard index + count <= scalars.count,
        scalars[index..<(index + count)].allSatisfy(\.isASCIIDigit)
      else { return nil }
      let value = scalars[index..<(index + count)].reduce(0) { $0 * 10 + Int($1.value) - 48 }
      index += count
      return value
    }

    package mutating func skip(_ scalar: Unicode.Scalar) -> Bool {
      guard !isAtEnd, scalars[index] == scalar else { return false }
      index += 1
      return true
    }

    package mutating func skipDigits() {
      while peekDigit { index += 1 }
    }

    package mutating func skipSpaces() {
      while !isAtEnd, scalars[index] == " " { index += 1 }
    }
  }
}
