import Foundation

/// Where the program keeps its files.
///
/// With `NEWS_HOME` set, everything lives in that one directory. Otherwise the XDG base directories
/// are used: the key in `$XDG_CONFIG_HOME/news`, the store in `$XDG_DATA_HOME/news`, the feed cache
/// in `$XDG_CACHE_HOME/news`, with the usual `~/.config`, `~/.local/share` and `~/.cache` fallbacks.
public struct Paths: Sendable, Equatable {
  /// Configuration: the store key and `config.json`.
  public var configDirectory: URL
  /// Data that must survive: articles, listings, bookmarks, sync state.
  public var dataDirectory: URL
  /// Data that may be thrown away: the feed cache.
  public var cacheDirectory: URL

  /// Creates paths from explicit directories.
  public init(configDirectory: URL, dataDirectory: URL, cacheDirectory: URL) {
    self.configDirectory = configDirectory
    self.dataDirectory = dataDirectory
    self.cacheDirectory = cacheDirectory
  }

  /// All three directories in one place.
  public init(home: URL) {
    self.init(configDirectory: home, dataDirectory: home, cacheDirectory: home)
  }

  /// Resolves the directories from `NEWS_HOME`, the XDG variables and `HOME`.
  public static func resolve(environment: [String: String]) throws(ConfigurationError) -> Paths {
    if let home = environment["NEWS_HOME"], !home.isEmpty {
      guard home.hasPrefix("/") else {
        throw .invalidValue(variable: "NEWS_HOME", value: home, expected: "an absolute path")
      }
      return Paths(home: URL(fileURLWithPath: home, isDirectory: true))
    }
    let userHome = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
    func xdg(_ variable: String, fallback: String) -> URL {
      // The XDG spec says relative values are invalid and must be ignored.
      let base =
        environment[variable].flatMap { $0.hasPrefix("/") ? $0 : nil }
        ?? (userHome as NSString).appendingPathComponent(fallback)
      return URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent(
        "news", isDirectory: true)
    }
    return Paths(
      configDirectory: xdg("XDG_CONFIG_HOME", fallback: ".config"),
      dataDirectory: xdg("XDG_DATA_HOME", fallback: ".local/share"),
      cacheDirectory: xdg("XDG_CACHE_HOME", fallback: ".cache"))
  }
}
