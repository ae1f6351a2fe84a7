import NewsCore

/// Every option of every command, declared once with its type, accepted values and help; commands
/// list them (or a group of them) in their specs and read them typed, as `arguments[Options.page]`.
enum Options {
  // MARK: Output

  /// `--json`.
  static let json = Flag("json", help: "Print one JSON document instead of text.")
  /// `--jsonl`.
  static let jsonl = Flag(
    "jsonl", help: "Print one JSON object per line (JSON Lines), each as soon as it is ready.")
  /// `--limit <n>`.
  static let limit = OptionKey<Int>.integer("limit", in: 1...Int.max, help: "Show at most n items.")
  /// The output of every list command.
  static let output = [json.spec, jsonl.spec]

  // MARK: Freshness

  /// `--offline`.
  static let offline = Flag(
    "offline", help: "Never use the network: read what is stored (no key needed).")
  /// `--refresh`.
  static let refresh = Flag("refresh", help: "Fetch now, whatever is stored or cached.")
  /// `--offline` and `--refresh`, which contradict each other.
  static let freshness = [offline.spec, refresh.spec]
  /// `--full` (show).
  static let full = Flag(
    "full", help: "Fetch the article's page and show the whole story extracted from it (kept).")
  /// `--unread`.
  static let unread = Flag("unread", help: "Only the articles not read yet.")
  /// `--repair` (doctor).
  static let repair = Flag(
    "repair",
    help: "Drop article segments that no longer read and remove damaged listings and caches.")

  // MARK: newsapi.org

  /// `--country <code>`.
  static let country = OptionKey<String>.text(
    "country", "<code>", help: "Two-letter country code (default: us, or NEWS_COUNTRY).")
  /// `--category <name>`.
  static let category = OptionKey<String>.choice(
    "category", "<name>", choices: TopHeadlinesQuery.categories,
    help: "business, entertainment, general, health, science, sports or technology.")
  /// `-q`, `--query <words>`.
  static let query = OptionKey<String>.text(
    "query", short: "q", "<words>", help: "Only headlines matching these words.")
  /// `--sources <ids>`.
  static let sources = OptionKey<[String]>.list(
    "sources", "<ids>",
    help: "Comma-separated newsapi.org source ids (not with --country or --category).")
  /// `--page-size <n>`.
  static let pageSize = OptionKey<Int>.integer(
    "page-size", in: 1...100, help: "Articles per page, 1 to 100 (default: 20).")
  /// `--page <n>`.
  static let page = OptionKey<Int>.integer(
    "page", in: 1...Int.max, help: "Page number, 1 or more (default: 1).")
  /// The filters of top headlines, with the ``QueryFilter`` each is.
  static let filters: [(spec: OptionSpec, filter: QueryFilter)] = [
    (country.spec, .country), (category.spec, .category), (query.spec, .query),
    (sources.spec, .sources), (pageSize.spec, .pageSize), (page.spec, .page),
  ]

  /// `--from <provider>`, with the providers of `registry` as its choices.
  static func provider(_ registry: ProviderRegistry) -> OptionKey<String> {
    let names = registry.names
    return .choice(
      "from", "<provider>", choices: names,
      help: names.enumerated().map { $0 == 0 ? $1 + " (default)" : $1 }.joined(separator: ", ")
        + ".")
  }

  // MARK: Online search

  /// `--online`.
  static let online = Flag(
    "online", help: "Search newsapi.org (/v2/everything) instead of the store.")
  /// `--language <code>`.
  static let language = OptionKey<String>.text(
    "language", "<code>", help: "Two-letter language code, e.g. fr (or NEWS_LANGUAGE).")
  /// `--sort-by <order>`.
  static let sortBy = OptionKey<String>.choice(
    "sort-by", "<order>", choices: EverythingQuery.sortOrders,
    help: "relevancy, popularity or publishedAt.")
  /// `--from <date>`.
  static let fromDate = OptionKey<String>.text(
    "from", "<date>", help: "Oldest article, ISO 8601 date or date-time.")
  /// `--to <date>`.
  static let toDate = OptionKey<String>.text(
    "to", "<date>", help: "Newest article, ISO 8601 date or date-time.")
  /// `--domains <list>`.
  static let domains = OptionKey<[String]>.list(
    "domains", "<list>", help: "Only these domains, comma-separated.")
  /// `--exclude-domains <list>`.
  static let excludeDomains = OptionKey<[String]>.list(
    "exclude-domains", "<list>", help: "Not these domains, comma-separated.")
  /// `--search-in <fields>`.
  static let searchIn = OptionKey<[String]>.list(
    "search-in", "<fields>", of: EverythingQuery.searchFields,
    help: "Any of title,description,content.")
  /// The options of `--online` searches (only with `--online`).
  static let onlineSearch = [
    language.spec, sortBy.spec, fromDate.spec, toDate.spec, domains.spec, excludeDomains.spec,
    searchIn.spec, pageSize.spec, page.spec,
  ]

  // MARK: Others

  /// `--new` of download.
  static let downloadNew = Flag(
    "new", help: "Only files never downloaded before (not again if their file was deleted).")
  /// `--source <name>` of download.
  static let downloadSource = OptionKey<String>.text(
    "source", "<name>", help: "Without ids: the newest items of this source (with --limit)."
  ).completing(.sources)
  /// `--limit <n>` of download.
  static let downloadLimit = OptionKey<Int>.integer(
    "limit", in: 1...10_000, help: "Without ids: this many newest items a source (default 5).")
  /// `--dir <dir>` of download.
  static let downloadDirectory = OptionKey<String>.text(
    "dir", "<dir>", help: "Into this directory instead of NEWS_DOWNLOAD_DIR.")

  /// `--source <names>` of the feed.
  static let feedSources = OptionKey<[String]>.list(
    "source", "<names>", help: "Only these sources (comma-separated, e.g. a,b)."
  ).completing(.sources)
  /// `--wait` of sync.
  static let wait = Flag("wait", help: "Wait for another running sync instead of exiting with 75.")
  /// `--all` of read.
  static let all = Flag("all", help: "Every stored article (of --source, when given).")
  /// `--where <query>` of read, unread and bookmark.
  static let whereQuery = OptionKey<String>.text(
    "where", "<query>", help: "The articles this query matches (docs/queries.md).")
  /// `--older-than <age>` of read.
  static let olderThan = OptionKey<String>.text(
    "older-than", "<age>",
    help: "Every stored article published (else first seen) longer ago than this: 7d, 12h, 2w.")
  /// `--dry-run` of the bulk marks.
  static let dryRun = Flag("dry-run", help: "Say how many would change, and change nothing.")
  /// `--source <name>` of read.
  static let readSource = OptionKey<String>.text(
    "source", "<name>", help: "Only the articles of this provider or feed source."
  ).completing(.sources)
  /// `--source <name>` of browse.
  static let browseSource = OptionKey<String>.text(
    "source", "<name>", help: "Start on this feed source."
  ).completing(.sources)
  /// `--name <name>` of sources add.
  static let sourceName = OptionKey<String>.text(
    "name", "<name>", help: "The source's name (default: from the feed's title).")
  /// `--ttl <time>` of sources add and set.
  static let ttl = OptionKey<Int>.duration(
    "ttl", in: 0...31_536_000,
    help: "How long its answer stays fresh: seconds, or 30m, 2h, 1d (default 15m).")
  /// `--search <words>` of sources add.
  static let execCommand = OptionKey<String>.text(
    "exec", "<command>",
    help: "Add a source whose feed is what <command> prints (/bin/sh -c; no URL).")
  /// `--items <selector>` and the other selectors of a page source (sources add).
  static let pageItems = OptionKey<String>.text(
    "items", "<selector>", help: "Read the page as a feed: each element it selects an item.")
  static let pageTitle = OptionKey<String>.text(
    "title", "<selector>", help: "An item's title (default: its first heading or link).")
  static let pageLink = OptionKey<String>.text(
    "link", "<selector>", help: "An item's link (default: its first <a href>; @attr reads one).")
  static let pageDate = OptionKey<String>.text(
    "date", "<selector>", help: "An item's date (time@datetime; default: when first seen).")
  static let pageContent = OptionKey<String>.text(
    "content", "<selector>", help: "An item's text.")
  static let pageDateFormat = OptionKey<String>.text(
    "date-format", "<pattern>", help: "The dates' pattern when not RFC 3339 or 822 (dd.MM.yyyy).")
  /// The page selectors' options, with the field of `"html"` each sets.
  static let pageSelectors: [(key: String, option: OptionKey<String>)] = [
    ("items", pageItems), ("title", pageTitle), ("link", pageLink), ("date", pageDate),
    ("content", pageContent),
  ]
  /// `--dry-run` of sources add.
  static let pageDryRun = Flag(
    "dry-run", help: "With --items: print the items the page gives, and add nothing.")
  /// `--filter <command>` of sources add.
  static let filterCommand = OptionKey<String>.text(
    "filter", "<command>",
    help: "Pipe the feed at <url> through <command> (/bin/sh -c) before reading it.")
  /// `--search <query>` of sources add.
  static let saveSearch = OptionKey<String>.text(
    "search", "<query>",
    help: "Add a saved search instead: a source of the stored articles a query matches.")
  /// `--tag <tag>` of feed and sources.
  static let tag = OptionKey<String>.text(
    "tag", "<tag>", help: "Only the sources filed under this tag."
  ).completing(.tags)
  /// `--max-items <n>` of sources set and add.
  static let maxItems = OptionKey<Int>.integer(
    "max-items", in: 0...1_000_000, help: "Keep and show at most n items (0: no limit).")
  /// `--tags <tags>` of sources set and add.
  static let tags = OptionKey<[String]>.list(
    "tags", "<tags>", help: "The tags it is filed under (comma-separated; none: no tags).")
  /// `--enable` and `--disable` of sources set.
  static let enable = Flag("enable", help: "Fetch it with the others again.")
  static let disable = Flag(
    "disable", help: "Leave it out of feed, sync and browse (--source still names it).")
  /// `--full-text` (sources set and add) and `--no-full-text` (set).
  static let fullTextOn = Flag(
    "full-text", help: "Show its articles' full text, extracted for new items by feed and sync.")
  static let fullTextOff = Flag("no-full-text", help: "Show what its feed carries again.")
  /// `--hide` (sources set and add) and `--show` (set).
  static let hide = Flag(
    "hide", help: "Leave it out of the plain feed and browse's home (still synced and searched).")
  static let show = Flag("show", help: "Show it in the plain feed and browse's home again.")
  /// `--feed-title <title>` of sources set and add (`sources add --title` is a page's selector).
  static let feedTitle = OptionKey<String>.text(
    "feed-title", "<title>",
    help: "What OPML exports and news serve's apps call it (\"\": its name).")
  /// The settings `sources add` writes into the new source's entry too.
  static let newSourceSettings = [
    tags.spec, maxItems.spec, feedTitle.spec, fullTextOn.spec, hide.spec,
  ]
  /// `--url <url>` of sources set: where a feed that moved is now.
  static let sourceURL = OptionKey<String>.text(
    "url", "<url>", help: "Where it is fetched from now (a feed that moved).")
  /// The settings `sources set` changes.
  static let sourceSettings = [
    maxItems.spec, tags.spec, feedTitle.spec, sourceURL.spec, enable.spec, disable.spec,
    fullTextOn.spec, fullTextOff.spec, hide.spec, show.spec,
  ]
  /// `--in <field>` of ignore add.
  static let ignoreField = OptionKey<String>.choice(
    "in", "<field>", choices: IgnoreRule.Field.searched.map(\.rawValue),
    help: "Where the rule looks: title (the default), author, link or text.")
  /// `--hooks` of sources add.
  static let runHooks = Flag(
    "hooks", help: "Run the newItem hook for the new subscription's items (it runs for none).")
  /// `--forget` of sources remove.
  static let forget = Flag(
    "forget", help: "Forget its stored articles too (its bookmarks and read marks stay).")
  /// `--query <query>` of ignore add.
  static let ignoreQuery = OptionKey<String>.text(
    "query", "<query>", help: "A rule that is a query of the language (docs/queries.md).")
  /// `--source <name>` of ignore add.
  static let ignoreSource = OptionKey<String>.text(
    "source", "<name>", help: "Only this provider's or feed source's items."
  ).completing(.sources)
  /// `--regex` of ignore add.
  static let regex = Flag(
    "regex", help: "The pattern is a regular expression (case-insensitive), not words.")
  /// `--show-ignored` of feed.
  /// `--new` of feed.
  /// `--since <time>` of feed.
  static let since = OptionKey<String>.text(
    "since", "<time>",
    help:
      "Only the items first seen at or after this ISO 8601 time (2026-11-25T08:00:00Z), or "
      + "this long ago (30m, 12h, 2d, 1w).")
  static let newOnly = Flag(
    "new", help: "Only the items new in this run (not in any source's cache before it).")
  static let showIgnored = Flag(
    "show-ignored", help: "Show the items the ignore rules hide, marked [ignored].")
  /// `--failing` of sources.
  static let failing = Flag(
    "failing", help: "Only the sources failing run after run: since when, and why.")
  /// `--exec <command>` of sync: the `newItem` hook of this run.
  static let exec = OptionKey<String>.text(
    "exec", "<command>",
    help: "Run <command> (through /bin/sh -c) once per item new in this sync, its JSON on stdin.")
  /// `--quiet` of sync.
  static let quiet = Flag("quiet", help: "Print nothing when every source succeeded.")
  /// `--<kind> <url>` of accounts add, one an account kind that a reader runs (`--greader`,
  /// `--fever`, `--miniflux`, `--nextcloud`, `--ttrss`).
  static let accountKinds: [(kind: Account.Kind, option: OptionKey<String>)] =
    Account.Kind.allCases.filter { $0.defaultURL == nil }.map { kind in
      (kind, .text(kind.rawValue, "<url>", help: "The account's \(kind.api)."))
    }
  /// `--feedbin` of accounts add: the one service among the kinds, at its own URL.
  static let feedbin = Flag(
    "feedbin", help: "A Feedbin account (https://api.feedbin.com/v2/; --url for another server).")
  /// `--url <url>` of accounts add: the API's URL of a kind that has one already (Feedbin).
  static let apiURL = OptionKey<String>.text(
    "url", "<url>", help: "With --feedbin: the API's URL of a Feedbin server of your own.")
  /// `--user <name>` of accounts add.
  static let user = OptionKey<String>.text(
    "user", "<name>",
    help: "The account's user name (Feedbin: the e-mail address; Miniflux: none with an API key).")
  /// `--password-file <file>` of accounts add.
  static let passwordFile = OptionKey<String>.text(
    "password-file", "<file>", help: "Read the password from this file (its first line).")
  /// `--password-env <variable>` of accounts add.
  static let passwordEnv = OptionKey<String>.text(
    "password-env", "<variable>", help: "Read the password from this environment variable.")
  /// `--account <name>` of sync.
  static let account = OptionKey<String>.text(
    "account", "<name>", help: "Sync only this account (news accounts lists them)."
  ).completing(.accounts)
  /// `--account <name>` of sources add and import.
  static let onAccount = OptionKey<String>.text(
    "account", "<name>",
    help: "Subscribe on this account's server (any kind but Fever) instead of locally."
  ).completing(.accounts)
  /// `-h`, `--help`, which every command takes.
  static let help = Flag("help", short: "h", help: "Show help for this command.")
}
