import Foundation

/// Where and how `news download` keeps enclosures: `NEWS_DOWNLOAD_DIR`, `NEWS_DOWNLOAD_NAME`,
/// `NEWS_DOWNLOAD_CONCURRENCY`, `NEWS_DOWNLOAD_MAX`.
public struct DownloadSettings: Sendable {
  /// The directory files go into: `NEWS_DOWNLOAD_DIR`, else the XDG download directory
  /// (`XDG_DOWNLOAD_DIR`, or its line in `user-dirs.dirs`), else `~/Downloads`.
  public var directory: URL
  /// How a file is named below `directory` (`NEWS_DOWNLOAD_NAME`).
  public var name: DownloadName
  /// Files downloaded at once (`NEWS_DOWNLOAD_CONCURRENCY`, 3).
  public var concurrency: Int
  /// The largest file accepted, in bytes (`NEWS_DOWNLOAD_MAX`, 4 GiB), checked as bytes arrive.
  public var maximumBytes: Int64

  /// The default size limit: 4 GiB.
  public static let defaultMaximum: Int64 = 4 << 30

  /// Reads the settings from the merged variables; `userDirs` is the text of
  /// `$XDG_CONFIG_HOME/user-dirs.dirs` when there is one.
  static func resolve(_ values: [String: String], userDirs: String?) throws(ConfigurationError)
    -> DownloadSettings
  {
    let home =
      values["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
    let directory: String
    if let explicit = values["NEWS_DOWNLOAD_DIR"] {
      let expanded = explicit.hasPrefix("~/") ? home + explicit.dropFirst() : explicit
      guard expanded.hasPrefix("/") else {
        throw .invalidValue(
          variable: "NEWS_DOWNLOAD_DIR", value: explicit, expected: "an absolute path")
      }
      directory = expanded
    } else if let xdg = values["XDG_DOWNLOAD_DIR"], xdg.hasPrefix("/") {
      directory = xdg
    } else if let listed = userDirs.flatMap({ Self.downloadDirectory(in: $0, home: home) }) {
      directory = listed
    } else {
      directory = (home as NSString).appendingPathComponent("Downloads")
    }
    let template = values["NEWS_DOWNLOAD_NAME"] ?? DownloadName.defaultTemplate
    let name: DownloadName
    do {
      name = try DownloadName(template)
    } catch {
      throw .invalidValue(variable: "NEWS_DOWNLOAD_NAME", value: template, expected: error.expected)
    }
    return DownloadSettings(
      directory: URL(fileURLWithPath: directory, isDirectory: true), name: name,
      concurrency: try Configuration.integer(
        values, "NEWS_DOWNLOAD_CONCURRENCY", in: 1...16, expected: "a number of files") ?? 3,
      maximumBytes: try bytes(values, "NEWS_DOWNLOAD_MAX") ?? defaultMaximum)
  }

  /// `XDG_DOWNLOAD_DIR="$HOME/Downloads"` in `user-dirs.dirs`, made absolute; `nil` without
  /// one (the file's format allows only `$HOME/…` or an absolute path).
  static func downloadDirectory(in userDirs: String, home: String) -> String? {
    for line in userDirs.split(whereSeparator: \.isNewline) {
      let text = line.trimmingCharacters(in: .whitespaces)
      guard text.hasPrefix("XDG_DOWNLOAD_DIR=") else { continue }
      var value = String(text.dropFirst("XDG_DOWNLOAD_DIR=".count))
      if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
        value = String(value.dropFirst().dropLast())
      }
      if value.hasPrefix("$HOME") { value = home + value.dropFirst("$HOME".count) }
      // "$HOME/" alone means the download directory is off: the home directory itself.
      return value.hasPrefix("/") ? value : nil
    }
    return nil
  }

  /// A size: bytes, or a number with `K`, `M`, `G`, `T` (powers of 1024; `KiB`, `MB`… accepted).
  static func bytes(_ values: [String: String], _ variable: String) throws(ConfigurationError)
    -> Int64?
  {
    guard let text = values[variable] else { return nil }
    let expected = "a size in bytes, or with K, M, G or T (e.g. 500M, 4G)"
    var digits = text.trimmingCharacters(in: .whitespaces).uppercased()
    for suffix in ["IB", "B"] where digits.hasSuffix(suffix) { digits.removeLast(suffix.count) }
    var multiplier: Int64 = 1
    if let unit = digits.last, let power = "KMGT".firstIndex(of: unit) {
      multiplier = 1 << (10 * ("KMGT".distance(from: "KMGT".startIndex, to: power) + 1))
      digits.removeLast()
    }
    guard let value = Int64(digits.trimmingCharacters(in: .whitespaces)), value > 0,
      value <= Int64.max / multiplier
    else { throw .invalidValue(variable: variable, value: text, expected: expected) }
    return value * multiplier
  }
}
