import Foundation

extension Configuration {
  /// The configuration of a run: the environment first, then `.env` in `currentDirectory`, then
  /// `.env` in the configuration directory (`$XDG_CONFIG_HOME/news/.env`, or `$NEWS_HOME/.env`:
  /// where `news` looks wherever it is started from, cron included). A variable set in more than
  /// one place takes the first.
  ///
  /// - Throws: ``ConfigurationError/unreadableFile(variable:path:reason:)`` for a `.env` that is
  ///   not UTF-8 text, or what a variable's value is refused for.
  public static func load(environment: [String: String], currentDirectory: URL) throws
    -> Configuration
  {
    let localURL = currentDirectory.appendingPathComponent(".env").standardizedFileURL
    let local = try read(localURL)
    let userDirs = userDirsText(environment)
    // Where the configuration directory is may itself be set in the local `.env`.
    let first = try Configuration(environment: environment, dotEnv: local, userDirs: userDirs)
    let fallbackURL = first.paths.configDirectory.appendingPathComponent(".env")
      .standardizedFileURL
    guard fallbackURL.path != localURL.path else {
      var configuration = first
      configuration.dotEnvPlaces = [localURL.path]
      return configuration
    }
    var configuration = try Configuration(
      environment: environment, dotEnv: local, fallbackDotEnv: try read(fallbackURL),
      userDirs: userDirs)
    configuration.dotEnvPlaces = [localURL.path, fallbackURL.path]
    return configuration
  }

  /// The text of `user-dirs.dirs` (`$XDG_CONFIG_HOME`, else `~/.config`), `nil` when there is
  /// none or it cannot be read: the download directory then falls back to `~/Downloads`.
  private static func userDirsText(_ environment: [String: String]) -> String? {
    let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
    let config =
      environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
    return try? String(contentsOfFile: config + "/user-dirs.dirs", encoding: .utf8)
  }

  /// The text of the `.env` file at `url`, `nil` when there is none.
  private static func read(_ url: URL) throws(ConfigurationError) -> String? {
    guard FileManager.default.fileExists(atPath: url.path) else { return nil }
    do {
      return try String(contentsOf: url, encoding: .utf8)
    } catch {
      throw ConfigurationError.unreadableFile(
        variable: "", path: url.path, reason: "not readable UTF-8 text")
    }
  }
}
