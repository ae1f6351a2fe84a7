import FeedParsing
import Foundation
import NewsCore

/// Everything `news browse` shows, as one value: the screen is a pure function of it
/// (``BrowseRenderer``), and keys and answers change it (``BrowseState/handle(_:)``), returning
/// what the session must do (``BrowseEffect``).
struct BrowseState: Equatable {
  /// Which screen is up.
  enum Screen: Equatable {
    /// Every list, with its counts and state (``BrowseState/home``).
    case home
    case list
    case article(id: String)
    case help
  }

  /// Likes and comments of an open article.
  enum Counts: Equatable {
    case pending
    /// `nil` where the count could not be had (`unavailable`).
    case loaded(likes: Int?, comments: Int?)
  }

  /// A row of the home screen: one list's counts and state.
  struct HomeRow: Equatable {
    /// Unread and total items, once known from the store or an answer.
    var unread: Int?
    var total: Int?
    /// `fresh`, `cached 5 min ago`, `stored 2 h ago`, `never fetched`, or why it failed.
    var status = ""
    /// A fetch of it is under way (the row shows a progress mark).
    var loading = false
    /// Its last fetch failed (the status says why).
    var failed = false
    /// Whether the store or an answer has filled it yet (the status is `…` until then).
    var filled = false
  }

  /// The providers and feed sources Tab cycles through.
  var channels: [String]
  /// The run's time zone: the filter's `date:` days are its days.
  var timeZone: TimeZone
  /// Which articles are asked for likes and comments (`NEWS_COUNTS`).
  var countsPolicy: CountsPolicy = .all
  /// The home screen's rows, one a channel, in the same order.
  var home: [HomeRow] = []
  /// The channels that gather the others' items (All unread, Bookmarks): `n` and `R` pass them.
  var gatherers: Set<Int> = []
  /// The All unread list's row: the header counts its unread items (``homeUnread``).
  var allUnreadRow: Int?
  /// The channels that are one feed source (`A` on a whole one marks the source read: one
  /// request for an account's feed).
  var sources: Set<Int> = []
  /// The channels that are saved searches: answered from the store, so `R` asks them after the
  /// hidden sources (whose items they may list) have answered.
  var searches: Set<Int> = []
  /// Whether there are hidden sources (newsboat's `!`): no rows, but `R` fetches them too.
  var hasHidden = false
  /// Whether `R`'s fetch of the hidden sources is under way.
  var hiddenLoading = false
  /// Each channel's tags (`t` filters the home screen by one).
  var channelTags: [[String]] = []
  /// The tag the home screen shows only the lists of, if any.
  var homeTag: String?
  /// The selected row of the home screen, and its first visible row.
  var homeSelection = 0
  var homeScroll = 0
  /// The screen the help goes back to.
  var helpReturn = Screen.list
  /// The first row of the keys shown, when they are more than the screen holds.
  var helpScroll = 0
  /// `n` or `N` opened another list and waits for it: then its first (or last) unread article
  /// is opened.
  var seeking: Bool?
  /// What `A` marked read, for `u` to mark unread again while still on the list.
  var undoable: [String]?
  /// Digits typed before a key: a count (`7` then mark-older-read: seven days; `5j`; on an
  /// article, `2o` opens link 2 of its text).
  var count: Int?
  /// Which keys do what (``KeyMap``): the defaults, or `"keys"` of `config.json`.
  var keys = KeyMap()
  /// The keys typed so far of a longer binding (`g` of `gg`).
  var pendingKeys: [Key] = []
  /// The one shown.
  var channel = 0
  /// What the list is (`Top headlines · us`).
  var heading = ""
  /// How fresh it is (`fresh`, `stored 5 min ago`, `offline`).
  var freshness = ""
  /// The list, in its order.
  var articles: [Article] = []
  /// Ids marked read (by this session or before).
  var read: Set<String> = []
  /// Ids bookmarked.
  var bookmarked: Set<String> = []
  /// The words of the query the list is filtered by (docs/queries.md), as typed.
  var filter: [String] = []
  /// That query, read when it was entered (`nil` without a filter).
  var filterQuery: ArticleQuery? {
    didSet { filterBudget = FilterBudget() }
  }
  /// The time the filter's regular expressions may take while it stands (a new filter, a new
  /// budget), shared by every matcher built for it.
  var filterBudget = FilterBudget()
  /// The kept full texts of the list's articles, as articles showing them, once a filter asked
  /// for them: the filter looks in them as `news search` does.
  var keptTexts: [String: Article] = [:]
  /// Now, for a filter's `age<`: set by the session before each key.
  var now = Date(timeIntervalSince1970: 0)
  /// The filter being typed after `/`, if it is.
  var filterInput: String?
  /// The selected row of the visible list.
  var selection = 0
  /// The first visible row of the list.
  var scroll = 0
  /// The screen up.
  var screen = Screen.list
  /// The first visible line of the open article.
  var articleScroll = 0
  /// Likes and comments, by article id.
  var counts: [String: Counts] = [:]
  /// The full text of an article, by id: being fetched, or had and shown or not (`f`).
  var fullTexts: [String: FullTextState] = [:]
  /// The ids of the listed articles whose full text is kept (marked in the list).
  var withFullText: Set<String> = []
  /// The ids of the listed articles carrying audio or video (marked `♪` in the list).
  var media: [String: [Enclosure]] = [:]
  /// The ids of the listed articles with a downloaded file (marked `↓`).
  var downloaded: Set<String> = []
  /// Whether the open list shows full text by default (a `"fullText": true` source).
  var showsFullText = false
  /// A reload is under way (the list stays until every source has answered).
  var loading = false
  /// A line for the footer (an error, what a key did).
  var message: String? {
    didSet { messageIsFullTextFetch = false }
  }
  /// Whether the footer's line says a full text is being fetched (cleared when it comes).
  var messageIsFullTextFetch = false
  /// The terminal's size.
  var width = 80
  var height = 24

  /// The articles the filter leaves, in the list's order.
  var visible: [Article] {
    guard !filter.isEmpty, let query = filterQuery else { return articles }
    var matcher = QueryMatcher(query, facts: queryFacts, budget: filterBudget.budget)
    return articles.filter { article in
      matcher.matches(article) || keptTexts[article.id].map { matcher.matches($0) } == true
    }
  }

  /// What a query needs to know of the list's articles beyond them: read, bookmarked, kept
  /// full texts, media, downloads, tags.
  var queryFacts: QueryFacts {
    var facts = QueryFacts(now: now)
    facts.readIDs = read
    facts.bookmarked = bookmarked
    facts.withFullText = withFullText
    facts.withEnclosures = Set(media.keys)
    facts.downloaded = downloaded
    for (name, tags) in zip(channels, channelTags) {
      facts.tags[name] = Set(tags.map { $0.lowercased() })
    }
    return facts
  }

  /// Rows the list has between the header and the footer.
  var listRows: Int { max(1, height - 2) }

  /// The selected article, if the list has any.
  var selected: Article? {
    let visible = self.visible
    return visible.indices.contains(selection) ? visible[selection] : nil
  }
}

/// What the session does for the state: fetch, open, store, quit.
/// Where an article's full text stands in browse.
enum FullTextState: Equatable {
  /// Being fetched in the background.
  case fetching
  /// Had: the article as shown with it, and whether it is shown (`f` toggles).
  case had(Article, shown: Bool)
}

enum BrowseEffect: Equatable {
  /// Read the kept full texts of `ids` for the filter (as `news search` looks in them).
  case loadKeptTexts([String])
  /// Load channel `channel`: what the store holds at once, then (unless `--offline`) an answer
  /// in the background (`refresh`: fetch even when cached).
  case load(channel: Int, refresh: Bool)
  /// Read every row's counts and state from the store (no request).
  case loadHome
  /// Fetch these channels in the background, each row showing its progress.
  case refresh(channels: [Int])
  /// Fetch the hidden sources in the background, then refresh `then` (the saved searches,
  /// which may list their items).
  case reloadHidden(then: [Int])
  /// Ask the info API for the article's likes and comments.
  case loadCounts(Article)
  /// Open the link in the browser (marks it read); with a number, that link of its text.
  case openLink(Article, Int?)
  /// Bookmark, or remove the bookmark.
  case setBookmark(Article, Bool)
  /// Mark read.
  case markRead(String)
  /// Run a command of `"commands"` on the article (`command:<name>`, as `news send`).
  case runCommand(String, Article)
  /// Mark these read (`A`), or unread again (`u`).
  case setRead([String], Bool)
  /// `A` on a whole list (no filter) of the source named: marked as one, for an account's feed.
  case setSourceRead(String, [String])
  /// Play the article's audio or video (`p`, as `news play`; the terminal handed over).
  case play(Article)
  /// Download the article's audio and video in the background (`d`, as `news download`).
  case download(Article)
  /// Fetch (or read from the store) the article's full text, in the background.
  case fetchFullText(Article)
  /// Save these words as a saved search (`s`).
  case saveSearch([String])
  /// A screen was shown (the `display` analytics event).
  case displayed
  /// Leave.
  case quit
}
