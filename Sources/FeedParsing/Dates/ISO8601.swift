import Foundation

/// Reading and writing ISO 8601 timestamps as the providers send them.
///
/// Hand-written rather than built on a date formatter: it is exact, locale-free and fast, and it
/// accepts the variants newsapi.org really sends.
public enum ISO8601 {
  /// Formats `date` in UTC as `2019-03-27T19:16:39Z` (fractions of a second are dropped).
  public static func string(from date: Date) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(24)
    write(date, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// ``string(from:)`` appended to `bytes` as UTF-8, without making the string: a JSON document
  /// written as bytes writes three dates for each of 10,000 sources.
  public static func write(_ date: Date, to bytes: inout [UInt8]) {
    let seconds = CivilDate.clampedSeconds(date)
    let civil = CivilDate(daysSinceEpoch: seconds.floorDiv(86_400))
    let time = seconds - seconds.floorDiv(86_400) * 86_400
    // Digits by hand, as bytes: `String(format:)` took a tenth of `sources --json` at 10,000
    // sources, and strings joined a piece at a time a tenth again. Years of four digits, all
    // but a few, as twenty bytes appended at once.
    if (0...9999).contains(civil.year) {
      func digit(_ value: Int) -> UInt8 { UInt8(truncatingIfNeeded: 0x30 + value) }
      let (year, month, day) = (civil.year, civil.month, civil.day)
      let (hour, minute, second) = (time / 3600, time / 60 % 60, time % 60)
      let (dash, colon) = (UInt8(ascii: "-"), UInt8(ascii: ":"))
      let text = (
        digit(year / 1000), digit(year / 100 % 10), digit(year / 10 % 10), digit(year % 10),
        dash, digit(month / 10), digit(month % 10), dash, digit(day / 10), digit(day % 10),
        UInt8(ascii: "T"), digit(hour / 10), digit(hour % 10), colon, digit(minute / 10),
        digit(minute % 10), colon, digit(second / 10), digit(second % 10), UInt8(ascii: "Z")
      )
      withUnsafeBytes(of: text) { bytes.append(contentsOf: $0) }
      return
    }
    // As `%0<width>ld` pads: zeros after the sign, the sign counted in the width.
    func append(_ value: Int, width: Int, then separator: Unicode.Scalar) {
      var magnitude = value.magnitude
      var digits = 1
      var power: UInt = 1
      while magnitude / power >= 10 {
        power *= 10
        digits += 1
      }
      if value < 0 { bytes.append(UInt8(ascii: "-")) }
      let padding = max(0, width - (value < 0 ? 1 : 0) - digits)
      bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: padding))
      while power > 0 {
        bytes.append(UInt8(ascii: "0") + UInt8(magnitude / power))
        magnitude %= power
        power /= 10
      }
      bytes.append(UInt8(ascii: separator))
    }
    // Each part in turn, not a table of them: a table was an array made for every date.
    append(civil.year, width: 4, then: "-")
    append(civil.month, width: 2, then: "-")
    append(civil.day, width: 2, then: "T")
    append(time / 3600, width: 2, then: ":")
    append(time / 60 % 60, width: 2, then: ":")
    append(time % 60, width: 2, then: "Z")
  }

  /// Parses a timestamp with or without fractional seconds, with `Z` or a numeric offset.
  ///
  /// A date alone (`2022-02-17`) is midnight UTC, and so is a time without a zone. Returns `nil`
  /// for anything else.
  public static func date(from text: String) -> Date? {
    var scanner = DigitScanner(text.trimmingCharacters(in: .whitespaces))
    guard let year = scanner.number(digits: 4), scanner.skip("-"),
      let month = scanner.number(digits: 2), scanner.skip("-"),
      let day = scanner.number(digits: 2),
      (1...12).contains(month), (1...CivilDate.daysIn(month: month, year: year)).contains(day)
    else { return nil }
    var seconds = Double(CivilDate(year: year, month: month, day: day).daysSinceEpoch) * 86_400
    if scanner.isAtEnd { return Date(timeIntervalSince1970: seconds) }
    guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
      let hour = scanner.number(digits: 2), scanner.skip(":"),
      let minute = scanner.number(digits: 2), hour < 24, minute < 60
    else { return nil }
    var second = 0.0
    if scanner.skip(":") {
      guard let whole = scanner.number(digits: 2), whole < 61 else { return nil }
      second = Double(whole)
      if scanner.skip(".") || scanner.skip(",") {
        guard let fraction = scanner.fraction() else { return nil }
        second += fraction
      }
    }
    seconds += Double(hour * 3600 + minute * 60) + second
    if scanner.isAtEnd || scanner.skip("Z") || scanner.skip("z") {
      return scanner.isAtEnd ? Date(timeIntervalSince1970: seconds) : nil
    }
    let sign: Double
    if scanner.skip("+") {
      sign = 1
    } else if scanner.skip("-") {
      sign = -1
    } else {
      return nil
    }
    guard let offsetHours = scanner.number(digits: 2), offsetHours < 24 else { return nil }
    _ = scanner.skip(":")
    let offsetMinutes = scanner.number(digits: 2) ?? 0
    guard scanner.isAtEnd, offsetMinutes < 60 else { return nil }
    seconds -= sign * Double(offsetHours * 3600 + offsetMinutes * 60)
    return Date(timeIntervalSince1970: seconds)
  }
}

private struct DigitScanner {
  private let scalars: [Unicode.Scalar]
  private var index = 0

  package init(_ text: String) { scalars = Array(text.unicodeScalars) }

  package var isAtEnd: Bool { index == scalars.count }

  package mutating func skip(_ scalar: Unicode.Scalar) -> Bool {
    guard index < scalars.count, scalars[index] == scalar else { return false }
    index += 1
    return true
  }

  package mutating func number(digits: Int) -> Int? {
    guard index + digits <= scalars.count else { return nil }
    var value = 0
    for scalar in scalars[index..<index + digits] {
      guard let digit = scalar.properties.numericType == .decimal ? Int(String(scalar)) : nil,
        scalar.isASCII
      else { return nil }
      value = value * 10 + digit
    }
    index += digits
    return value
  }

  package mutating func fraction() -> Double? {
    var digits = "0."
    while index < scalars.count, scalars[index].isASCII, ("0"..."9").contains(scalars[index]) {
      digits.unicodeScalars.append(scalars[index])
      index += 1
    }
    return digits.count > 2 ? Double(digits) : nil
  }
}
