import FeedParsing
import Foundation

/// How each kind of variable is read: every value that is set but unusable is an error naming the
/// variable (exit 78), for every command alike.
extension Configuration {
  static func apiKey(_ values: [String: String]) throws(ConfigurationError) -> String? {
    var key = values["NEWSAPI_KEY"]
    // A key file that is set is read even when NEWSAPI_KEY (which wins) is set too: a mistake in
    // it is never silent.
    if let path = values["NEWSAPI_KEY_FILE"] {
      let fromFile: String
      do {
        fromFile = try String(contentsOfFile: path, encoding: .utf8).droppingByteOrderMark
          .trimmingCharacters(in: .whitespacesAndNewlines)
      } catch {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        let reason =
          !exists
          ? "no such file"
          : isDirectory.boolValue ? "a directory, not a file" : "not readable UTF-8 text"
        throw .unreadableFile(variable: "NEWSAPI_KEY_FILE", path: path, reason: reason)
      }
      if fromFile.isEmpty {
        throw .invalidSecret(variable: "NEWSAPI_KEY_FILE", reason: "the file \(path) is empty")
      }
      key = key ?? fromFile
    }
    if let key, key.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value >= 0x7F }) {
      // A key with spaces or control characters would corrupt the request header.
      throw .invalidSecret(
        variable: values["NEWSAPI_KEY"] != nil ? "NEWSAPI_KEY" : "NEWSAPI_KEY_FILE",
        reason: "the key contains spaces or characters that are not printable ASCII")
    }
    return key
  }

  static func url(_ values: [String: String], _ variable: String, _ fallback: String)
    throws(ConfigurationError) -> URL
  {
    let text = values[variable] ?? fallback
    // Credentials in the URL would be logged and shown: refused.
    guard let url = URL.web(text), url.user == nil, url.password == nil else {
      throw .invalidValue(
        variable: variable, value: text, expected: "an http:// or https:// URL with a host")
    }
    return url
  }

  static func seconds(
    _ values: [String: String], _ variable: String, default fallback: Double, allowZero: Bool
  ) throws(ConfigurationError) -> Duration {
    guard let text = values[variable] else { return .milliseconds(Int(fallback * 1000)) }
    guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite,
      allowZero ? value >= 0 : value > 0, value <= 86_400
    else {
      throw .invalidValue(
        variable: variable, value: text,
        expected: allowZero
          ? "a number of seconds from 0 to 86400, e.g. 2 or 0.5"
          : "a number of seconds greater than 0, e.g. 15 or 2.5")
    }
    return .nanoseconds(Int64((value * 1e9).rounded()))
  }

  static func flag(_ values: [String: String], _ variable: String)
    throws(ConfigurationError) -> Bool?
  {
    guard let text = values[variable] else { return nil }
    switch text.lowercased() {
    case "1", "true", "yes", "on": return true
    case "0", "false", "no", "off": return false
    default:
      throw .invalidValue(variable: variable, value: text, expected: "1/on/true or 0/off/false")
    }
  }

  static func integer(
    _ values: [String: String], _ variable: String, in range: ClosedRange<Int>, expected: String
  ) throws(ConfigurationError) -> Int? {
    guard let text = values[variable] else { return nil }
    guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
      let bounds =
        range.upperBound >= 10_000_000
        ? "\(range.lowerBound) or more" : "from \(range.lowerBound) to \(range.upperBound)"
      throw .invalidValue(variable: variable, value: text, expected: "\(expected), \(bounds)")
    }
    return value
  }

  /// Whole seconds in `range`, written as ``DurationText`` reads them (`900`, `15m`, `1d`).
  static func duration(
    _ values: [String: String], _ variable: String, in range: ClosedRange<Int>
  ) throws(ConfigurationError) -> Int? {
    guard let text = values[variable] else { return nil }
    guard let seconds = DurationText.wholeSeconds(text, in: range) else {
      throw .invalidValue(
        variable: variable, value: text,
        expected: "whole seconds from \(range.lowerBound) to \(range.upperBound), or 15m, 2h, 1d")
    }
    return seconds
  }

  static func storeKey(_ values: [String: String]) throws(ConfigurationError) -> String? {
    guard let text = values["NEWS_STORE_KEY"] else { return nil }
    guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)),
      data.count == 32
    else {
      throw .invalidSecret(
        variable: "NEWS_STORE_KEY",
        reason: "expected 32 bytes in base64 (44 characters): head -c32 /dev/urandom | base64")
    }
    return text
  }

  /// `NEWS_REFRESH_MIN` and `NEWS_REFRESH_MAX`: whole seconds, the first not above the second.
  static func refreshBounds(_ values: [String: String]) throws(ConfigurationError)
    -> RefreshBounds
  {
    let minimum = try duration(values, "NEWS_REFRESH_MIN", in: 1...2_592_000)
    let maximum = try duration(values, "NEWS_REFRESH_MAX", in: 60...31_536_000)
    if let minimum, let maximum, minimum > maximum {
      throw .invalidValue(
        variable: "NEWS_REFRESH_MIN", value: String(minimum),
        expected: "at most NEWS_REFRESH_MAX (\(maximum))")
    }
    return RefreshBounds(
      minimum: minimum.map(Double.init), maximum: maximum.map(Double.init) ?? 86_400)
  }

  static func retention(_ values: [String: String]) throws(ConfigurationError) -> RetentionPolicy {
    // 0 is no limit: a reader who keeps everything says so.
    let days = try integer(
      values, "NEWS_RETENTION_DAYS", in: 0...36_500,
      expected: "a whole number of days (0: no limit)")
    let count = try integer(
      values, "NEWS_RETENTION_MAX", in: 0...10_000_000,
      expected: "a whole number of articles (0: no limit)")
    return RetentionPolicy(
      maximumAge: days == 0 ? RetentionPolicy.forever : .seconds((days ?? 30) * 86_400),
      maximumCount: count == 0 ? RetentionPolicy.unlimited : count ?? 5000)
  }

  /// Every `NEWS_FEED_<NAME>_TTL`, whatever the source (the file may declare new ones).
  static func feedTTLs(_ values: [String: String]) throws(ConfigurationError) -> [String: Duration]
  {
    var ttls: [String: Duration] = [:]
    for (variable, text) in values
    where variable.hasPrefix("NEWS_FEED_") && variable.hasSuffix("_TTL") && variable.count > 14 {
      guard let seconds = DurationText.seconds(text), (0...31_536_000).contains(seconds) else {
        throw .invalidValue(
          variable: variable, value: text,
          expected: "a number of seconds from 0 to 31536000, or 30m, 2h, 1d")
      }
      let name = String(variable.dropFirst("NEWS_FEED_".count).dropLast("_TTL".count))
      ttls[name] = .milliseconds(Int(seconds * 1000))
    }
    return ttls
  }
}
