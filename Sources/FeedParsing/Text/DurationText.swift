/// A length of time as a reader writes it: seconds (`900`, `0.5`), or a number and a unit,
/// `s`, `m`, `h` or `d` (`90s`, `30m`, `1.5h`, `2d`). Read wherever a setting is a time: a
/// source's `ttl` (`config.json`, `--ttl`), `NEWS_REFRESH_MIN`/`MAX`, `NEWS_FEED_<NAME>_TTL`,
/// `serve --refresh`.
public enum DurationText {
  /// The seconds `text` says, or `nil` when it says none (negative, not a number, another unit).
  public static func seconds(_ text: String) -> Double? {
    var number = Substring(text.trimmingCharacters(in: .whitespaces))
    let units: [Character: Double] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
    var unit = 1.0
    if let last = number.last, let seconds = units[last] {
      unit = seconds
      number = number.dropLast()
    }
    // Digits and one point only: `1e9`, `inf`, `+5` and `-5` are not times.
    guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
      let value = Double(number), value.isFinite
    else { return nil }
    return value * unit
  }

  /// The whole seconds `text` says within `range` (`1.5h` is 5400; `0.5` is none).
  public static func wholeSeconds(_ text: String, in range: ClosedRange<Int>) -> Int? {
    guard let seconds = seconds(text), seconds <= Double(range.upperBound),
      let whole = Int(exactly: seconds), range.contains(whole)
    else { return nil }
    return whole
  }
}
