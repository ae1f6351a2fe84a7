import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Keeps the platform's networking from writing outside the program's own directories.
///
/// On Linux, Foundation creates `~/.cache/org.swift.foundation.URLCache/<program>` for its shared
/// URL cache and `~/.local/share/<directory>` for its shared cookie store as soon as a session
/// configuration is made, whatever `NEWS_HOME` says. The program uses neither: both are replaced
/// before first use by stores that have nowhere to write.
public enum PlatformNetworking {
  /// A path that can never be created (a directory below a device file).
  private static let nowhere = "/dev/null/news"

  private static let cacheReplaced: Bool = {
    URLCache.shared = URLCache(memoryCapacity: 0, diskCapacity: 0, diskPath: nowhere)
    return true
  }()

  private static let cookiesReplaced: Bool = {
    #if os(Linux)
      // The shared cookie store takes its directory from XDG_DATA_HOME when it is first made.
      let saved = getenv("XDG_DATA_HOME").map { String(cString: $0) }
      setenv("XDG_DATA_HOME", nowhere, 1)
      _ = HTTPCookieStorage.shared
      if let saved { setenv("XDG_DATA_HOME", saved, 1) } else { unsetenv("XDG_DATA_HOME") }
    #endif
    return true
  }()

  /// Replaces the shared URL cache (thread-safe; every ``URLSessionHTTPClient`` does it).
  static func disableSharedCache() {
    _ = cacheReplaced
  }

  /// Replaces the shared URL cache and cookie store. Call it once at start-up, before any other
  /// thread runs: it briefly changes `XDG_DATA_HOME` in the process environment.
  public static func isolateFromHome() {
    _ = cacheReplaced
    _ = cookiesReplaced
  }
}
