import FeedParsing
import NewsCore

/// Why `news open` could not open an article's link.
enum OpenError: NewsError, Equatable {
  /// The article has no http(s) link to open: how many its text lists, and whether it
  /// carries audio or video (what else `open` and `play` could do with it).
  case noLink(id: String, textLinks: Int = 0, media: Bool = false)
  /// The article's text has no link of that number.
  case noSuchLink(id: String, number: Int, count: Int)
  /// The article carries no audio or video (`news play`).
  case noMedia(id: String)
  /// The browser could not be started.
  case notStarted(command: String, reason: String)
  /// The browser ran and failed: its exit status, or the signal that ended it.
  case failed(command: String, status: Int32, signalled: Bool = false)

  var message: String {
    switch self {
    case .noLink(let id, let textLinks, let media):
      "article \(TerminalSanitizer.clean(id)) has no http(s) link to open"
        + (textLinks == 0
          ? "" : "; its text lists \(textLinks): news open \(TerminalSanitizer.clean(id)) 1")
        + (media ? "; news play \(TerminalSanitizer.clean(id)) plays its audio or video" : "")
    case .noSuchLink(let id, let number, let count):
      "article \(TerminalSanitizer.clean(id)) has no link \(number)"
        + (count == 0
          ? ": its text lists no links" : "; its text lists \(count) (news show lists them)")
    case .noMedia(let id):
      "article \(TerminalSanitizer.clean(id)) carries no audio or video (news show lists its files)"
    case .notStarted(let command, let reason):
      "could not start the browser '\(command)': \(reason) (set BROWSER to another command)"
    case .failed(let command, let status, let signalled):
      signalled
        ? "the browser '\(command)' was ended by signal \(status)"
        : "the browser '\(command)' exited with status \(status)"
    }
  }

  var exitCode: ExitCode {
    switch self {
    case .noLink, .noSuchLink, .noMedia: .dataError
    case .notStarted, .failed: .unavailable
    }
  }
}
