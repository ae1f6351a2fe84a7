import FeedParsing
import Foundation

/// A feed source: where it is, how long its answer stays fresh, and how to read it.
public struct FeedSource: Sendable {
  /// Lower-case name, used in `--source`, ids and `NEWS_FEED_<NAME>_TTL`.
  public var name: String
  /// Where to fetch it.
  public var url: URL
  /// How long a fetched answer is served from the cache without asking again.
  public var ttl: Duration
  /// Whether `ttl` was set (config.json or `NEWS_FEED_<NAME>_TTL`): then it is used as it is;
  /// else the source's own hints may lengthen it (``FeedService``).
  public var ttlIsExplicit = false
  /// How its body becomes items.
  public var adapter: any FeedAdapter
  /// Tags it is filed under (OPML folders, newsboat tags), from `config.json`.
  public var tags: [String] = []
  /// The feed's own title (`"title"`: `Hacker News` for `hn`), as `sources add` and the imports
  /// found it: what an OPML export and the apps of `news serve` show. `nil`: the name is.
  public var title: String?

  /// The site the feed is of (`"site"`: its channel's link, OPML's `htmlUrl`), as `sources add`
  /// and the imports found it: what an OPML export and the apps of `news serve` link to.
  public var site: URL?

  /// What to call it where a title reads better than a name: its title, else its name.
  public var displayTitle: String { title ?? name }

  /// The source with the title and site its last answer gave (`last`) where its configuration
  /// names none: a feed imported as a bare address (newsboat's `urls`) is shown by its own
  /// title once fetched.
  public func describedBy(_ last: FeedService.LastFetch) -> FeedSource {
    var source = self
    if source.title == nil { source.title = last.title }
    if source.site == nil { source.site = last.site }
    return source
  }
  /// Keep and show at most this many of its items (the first in the source's order).
  public var maxItems: Int?
  /// Whether `feed`, `sync` and `browse` fetch it (`--source` still names a disabled one).
  public var enabled = true
  /// Hidden from the plain `news feed`'s list and browse's home screen (newsboat's `!`): still
  /// fetched (by the plain feed when due, a sync, browse's reload of every list), found by
  /// queries and saved searches, listed by `--tag` and `--source`.
  public var hidden = false
  /// A saved search: the words whose matches in the store are this source's items (nothing is
  /// fetched; `url` is then `search:<words>`).
  public var search: String?
  /// The account whose feed this is (`home` of `home/hacker-news`): its items come from the
  /// account's server with `news sync`, and are answered from the store (nothing is fetched).
  public var account: String?
  /// When the account last synced.
  public var syncedAt: Date?
  /// `"fullText": true`: `show` and browse show its articles' full text, and `feed` and `sync`
  /// extract it for new items (``FullTextService``).
  public var fullText = false
  /// `"extract"`: where its pages hold the article, for sites that defeat the general method.
  package var extract = ExtractionRules()
  /// `"exec"`: a command whose output is its document (nothing is fetched); `"filter"`: a
  /// command its fetched document goes through first (newsboat's `exec:` and `filter:`).
  public var command: SourceCommand?

  /// `items` cut to ``maxItems``.
  func limited(_ items: [FeedItem]) -> [FeedItem] {
    guard let maxItems, items.count > maxItems else { return items }
    return Array(items.prefix(maxItems))
  }

  /// Creates a source.
  public init(name: String, url: URL, ttl: Duration, adapter: any FeedAdapter) {
    self.name = name
    self.url = url
    self.ttl = ttl
    self.adapter = adapter
  }
}

/// The command of a source that has no feed of its own (newsboat's `exec:` and `filter:`).
public struct SourceCommand: Sendable, Equatable {
  /// What the command does.
  public enum Kind: String, Sendable {
    /// Its standard output is the document.
    case exec
    /// The fetched document goes through it.
    case filter
  }

  /// What the command does.
  public var kind: Kind
  /// The command, run by `/bin/sh -c`.
  public var command: String

  /// Creates a source's command.
  public init(kind: Kind, command: String) {
    self.kind = kind
    self.command = command
  }

  /// The address an `exec:` source stands at (nothing is fetched from it): `exec:<command>`.
  static func url(_ command: String) -> URL {
    let encoded =
      command.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"]))
      ?? "exec"
    return URL(string: "exec:" + encoded) ?? URL(fileURLWithPath: "/")
  }
}
