import FeedParsing
import Foundation

/// `news sources add`, `remove`, `import` could not do what was asked.
public enum SubscriptionError: NewsError, Equatable {
  /// The URL is neither a feed nor a page announcing one.
  case notAFeed(url: String, detail: String)
  /// A web page that announces no feed: it can be read as one by selectors.
  case pageWithoutFeed(url: String)
  /// `set --url` of a source that has no address (a saved search, a command's feed).
  case noAddress(String)
  /// `set --url` of an address another source has.
  case subscribedAs(url: String, name: String)
  /// A page read by selectors gave no item.
  case noItems(url: String, detail: String)
  /// The name is not usable as a source name.
  case invalidName(String)
  /// Another source has the name already.
  case nameTaken(String)
  /// The name is a provider's or a list's (`feed`, `search`, …).
  case reservedName(String)
  /// No source has that name.
  case unknownSource(name: String, known: [String])
  /// Built-in sources are part of the program.
  case builtIn(String)
  /// A source declared in the file `NEWS_CONFIG` names cannot be edited there.
  case unreadableFile(path: String, reason: String)
  /// The import file is not OPML nor a newsboat urls file, with where.
  case badImport(path: String, detail: String)
  /// The file to import is a feed, not a list of feeds; `path` is its address when it is one.
  case feedToImport(path: String, detail: String)
  /// The address given to subscribe to is a list of `feeds` feeds (OPML), to import.
  case listToAdd(url: String, feeds: Int)
  /// `config.json` could not be edited without breaking it.
  case uneditable(path: String, detail: String)
  /// A provider takes `--enable` and `--disable` only.
  case providerSetting(String)
  /// The source is a feed of an account, whose settings its server keeps.
  case accountFeed(name: String, account: String)

  /// `; did you mean 'emission-u'?` for `Émission Ü`: the name it would take as a title.
  private static func suggestion(for name: String) -> String {
    let slug = SourceName.slug(name, maxLength: 64)
    guard SourceName.isValid(slug), !SourceName.reserved.contains(slug) else { return "" }
    return "; did you mean '\(slug)'?"
  }

  public var message: String {
    switch self {
    case .notAFeed(let url, let detail):
      "\(TerminalSanitizer.clean(url)) is not a feed (RSS, Atom or JSON Feed) and announces none: \(detail)"
    case .pageWithoutFeed(let url):
      "\(TerminalSanitizer.clean(url)) is a web page that announces no feed; to read the page as "
        + "one, name its items: --items <selector> (--dry-run shows what it gives)"
    case .noItems(let url, let detail):
      "\(TerminalSanitizer.clean(url)) gave no item: \(TerminalSanitizer.clean(detail))"
    case .invalidName(let name):
      "'\(TerminalSanitizer.clean(name))' cannot name a source: use lower-case letters, digits and '-'"
        + Self.suggestion(for: name)
    case .nameTaken(let name):
      "a source named '\(name)' exists already; choose another with --name"
    case .reservedName(let name):
      "'\(name)' is taken by a provider or a list (\(SourceName.reserved.sorted().joined(separator: ", "))); choose another with --name"
    case .unknownSource(let name, let known):
      "no source named '\(TerminalSanitizer.clean(name))'; "
        + SourceName.listing(known, near: name)
    case .builtIn(let name):
      "'\(name)' is a built-in source and cannot be removed (its URL and ttl can be changed in config.json)"
    case .unreadableFile(let path, let reason):
      "cannot read \(path): \(reason)"
    case .badImport(let path, let detail), .feedToImport(let path, let detail):
      "cannot import \(path): \(detail)"
    case .listToAdd(let url, let feeds):
      "\(TerminalSanitizer.clean(url)) is a list of \(feeds.counted("feed")) (OPML), not a feed"
    case .uneditable(let path, let detail):
      "cannot edit \(path): \(detail); nothing was changed"
    case .noAddress(let name):
      "'\(name)' has no address to change (a saved search or a command's feed)"
    case .subscribedAs(let url, let name):
      "\(TerminalSanitizer.clean(url)) is subscribed already, as '\(name)'"
    case .providerSetting(let name):
      "'\(name)' is a provider: only --enable and --disable apply to it"
    case .accountFeed(let name, let account):
      "'\(name)' is a feed of account \(account): its server keeps its settings (its folders "
        + "are its tags here); change them there, and the next sync brings them"
    }
  }

  public var exitCode: ExitCode {
    switch self {
    case .notAFeed, .pageWithoutFeed, .noItems, .badImport, .feedToImport, .listToAdd: .dataError
    case .invalidName, .nameTaken, .reservedName, .unknownSource, .builtIn, .providerSetting,
      .noAddress, .subscribedAs, .accountFeed:
      .usage
    case .unreadableFile: .ioError
    case .uneditable: .configuration
    }
  }

  public var advice: Advice? {
    switch self {
    case .feedToImport(let path, _):
      return URL.web(path).map { .subscribe($0.withoutPassword.absoluteString) }
    case .listToAdd(let url, _):
      return .importList(url)
    default:
      return nil
    }
  }

  /// A file to import that could not be read as a list of feeds.
  public static func importing(_ path: String, _ failure: SubscriptionFile.Failure) -> Self {
    failure.isFeed
      ? .feedToImport(path: path, detail: failure.detail)
      : .badImport(path: path, detail: failure.detail)
  }
}
