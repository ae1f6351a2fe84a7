import Foundation
import NewsCore

/// The command that opens links: `$BROWSER`, else the desktop's opener.
struct Browser: Equatable {
  /// The program (a path, or a name looked up in `PATH`) and its arguments; `%s` is the link.
  var words: [String]
  /// The program's full path.
  var executable: String
  /// Its environment: the program's own, less every secret (``ChildEnvironment``).
  var environment: [String: String] = [:]

  /// The first usable command of `$BROWSER` (`:`-separated), else `xdg-open` when it is
  /// installed and there is a display (`open` on macOS); `nil` when there is none.
  static func find(environment: [String: String]) -> Browser? {
    let path = environment["PATH"] ?? "/usr/bin:/bin"
    var candidates =
      (environment["BROWSER"] ?? "").split(separator: ":").map {
        $0.split(whereSeparator: \.isWhitespace).map(String.init)
      }.filter { !$0.isEmpty }
    #if os(macOS)
      candidates.append(["open"])
    #else
      // Without a display, xdg-open has nowhere to open a link: printing it is more useful.
      if environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil {
        candidates.append(["xdg-open"])
      }
    #endif
    for words in candidates {
      if let executable = locate(words[0], path: path) {
        return Browser(
          words: words, executable: executable,
          environment: ChildEnvironment.scrubbed(environment))
      }
    }
    return nil
  }

  /// The player of `news play`: `NEWS_PLAYER` (a command, `%s` for the file or URL), else
  /// `mpv` when it is installed, else what opens links (``find(environment:)``).
  static func player(_ configured: String?, environment: [String: String]) -> Browser? {
    let path = environment["PATH"] ?? "/usr/bin:/bin"
    var candidates: [[String]] = []
    if let player = configured {
      let words = player.split(whereSeparator: \.isWhitespace).map(String.init)
      if !words.isEmpty { candidates.append(words) }
    }
    candidates.append(["mpv"])
    for words in candidates {
      if let executable = locate(words[0], path: path) {
        return Browser(
          words: words, executable: executable,
          environment: ChildEnvironment.scrubbed(environment))
      }
    }
    return find(environment: environment)
  }

  /// The player `configured` names (`NEWS_PLAYER`), when it cannot be found: the user is told,
  /// rather than mpv, an opener or the printed file used without a word.
  static func missingPlayer(_ configured: String?, environment: [String: String]) -> String? {
    guard let command = configured?.split(whereSeparator: \.isWhitespace).first.map(String.init)
    else { return nil }
    return locate(command, path: environment["PATH"] ?? "/usr/bin:/bin") == nil ? command : nil
  }

  /// The commands of `$BROWSER` that cannot be found (not installed, or not executable): the
  /// user is told, rather than another opener being used without a word.
  static func missing(environment: [String: String]) -> [String] {
    let path = environment["PATH"] ?? "/usr/bin:/bin"
    return (environment["BROWSER"] ?? "").split(separator: ":")
      .compactMap { $0.split(whereSeparator: \.isWhitespace).first.map(String.init) }
      .filter { locate($0, path: path) == nil }
  }

  /// Runs the browser on `link` and waits for it (a terminal browser needs the terminal), as
  /// `system(3)` runs a command: in `news`'s process group, which holds the terminal (a program
  /// in a group of its own stops at its first key read), with `SIGINT` and `SIGQUIT` ignored by
  /// `news` meanwhile (Ctrl-C is the browser's), and only its standard input, output and error
  /// open (``ChildProcess``): an opener that leaves a browser running in the background returns
  /// at once, rather than when the browser closes.
  ///
  /// A `news` that ignores `SIGTSTP` (browse, which handles Ctrl-Z itself) passes
  /// `followingStops`: the browser stopped by Ctrl-Z stops `news` too, and `fg` continues both
  /// (``ChildProcess/waitForExit(followingStops:)``).
  func open(_ link: String, followingStops: Bool = false) throws(OpenError) {
    var arguments = Array(words.dropFirst())
    if arguments.contains(where: { $0.contains("%s") }) {
      arguments = arguments.map { $0.replacingOccurrences(of: "%s", with: link) }
    } else {
      arguments.append(link)
    }
    let interrupt = signal(SIGINT, SIG_IGN)
    let quit = signal(SIGQUIT, SIG_IGN)
    defer {
      signal(SIGINT, interrupt)
      signal(SIGQUIT, quit)
    }
    let child: ChildProcess
    do {
      child = try ChildProcess.spawn(
        program: executable, arguments: arguments, environment: environment,
        streams: .terminal, ownGroup: false)
    } catch {
      throw .notStarted(command: words[0], reason: error.reason)
    }
    let termination = child.waitForExit(followingStops: followingStops)
    guard !termination.signalled, termination.status == 0 else {
      throw .failed(command: words[0], status: termination.status, signalled: termination.signalled)
    }
  }

  private static func locate(_ name: String, path: String) -> String? {
    let manager = FileManager.default
    if name.contains("/") { return manager.isExecutableFile(atPath: name) ? name : nil }
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/\(name)"
      if manager.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }
}
