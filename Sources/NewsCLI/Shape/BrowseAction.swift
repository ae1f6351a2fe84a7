import Foundation

/// What a key does in `news browse`: a named action, or one that carries an argument
/// (`open-query:<saved search>`, `filter:<query>`, `command:<name>`). docs/commands.md lists
/// them with their default keys.
enum BrowseAction: Hashable, Sendable {
  case named(Name)
  /// Opens the list of a saved search.
  case openQuery(String)
  /// Filters the list by a query, as `/` and the query typed would.
  case filter(String)
  /// Runs a command of `"commands"` on the article (as `news send`).
  case command(String)

  /// The actions without an argument, in the order the keys screen and the docs list them.
  enum Name: String, CaseIterable, Sendable {
    case down, up
    case pageDown = "page-down"
    case pageUp = "page-up"
    case top, bottom, open, back, quit
    case nextUnread = "next-unread"
    case prevUnread = "prev-unread"
    case nextList = "next-list"
    case prevList = "prev-list"
    case nextSource = "next-source"
    case prevSource = "prev-source"
    case toggleRead = "toggle-read"
    case markAllRead = "mark-all-read"
    case markAboveRead = "mark-above-read"
    case markOlderRead = "mark-older-read"
    case undo
    case openLink = "open-link"
    case toggleBookmark = "toggle-bookmark"
    case toggleFullText = "toggle-full-text"
    case play, download, reload
    case reloadAll = "reload-all"
    case nextTag = "next-tag"
    case filter
    case clearFilter = "clear-filter"
    case saveSearch = "save-search"
    case help
  }

  /// The screens an action does something on.
  var contexts: Set<KeyMap.Context> {
    switch self {
    case .openQuery: [.home, .list, .article]
    // An article is sent: there is none on the home screen.
    case .command: [.list, .article]
    case .filter: [.list]
    case .named(let name):
      switch name {
      case .down, .up, .pageDown, .pageUp, .top, .bottom, .back, .quit, .nextUnread,
        .prevUnread, .help, .nextList, .prevList, .nextSource, .prevSource:
        [.home, .list, .article]
      case .open: [.home, .list]
      case .reloadAll, .nextTag: [.home]
      case .reload: [.home, .list]
      case .markAllRead, .markAboveRead, .markOlderRead, .undo, .filter, .clearFilter, .saveSearch:
        [.list]
      case .toggleFullText: [.article]
      case .toggleRead, .openLink, .toggleBookmark, .play, .download: [.list, .article]
      }
    }
  }

  /// What it does, for the keys screen and `news keys`.
  var summary: String {
    switch self {
    case .openQuery(let name): return "open the saved search \(name)"
    case .filter(let query): return "filter by \(query)"
    case .command(let name): return "send the article to the command \(name)"
    case .named(let name):
      switch name {
      case .down: return "down (scroll in an article); a count moves that many"
      case .up: return "up"
      case .pageDown: return "a page down"
      case .pageUp: return "a page up"
      case .top: return "first (an article's start)"
      case .bottom: return "last (an article's end)"
      case .open: return "open the list; read the article (marks it read)"
      case .back: return "back: article, list, home (on the home screen: quit)"
      case .quit: return "quit"
      case .nextUnread: return "next unread article (the next list with some when none is left)"
      case .prevUnread: return "previous unread article"
      case .nextList: return "next list (provider, source or saved search)"
      case .prevList: return "previous list"
      case .nextSource: return "next feed source's list"
      case .prevSource: return "previous feed source's list"
      case .toggleRead: return "mark read, or unread again"
      case .markAllRead: return "mark the list read (undo right after undoes it)"
      case .markAboveRead: return "mark the articles above the selection read (undo undoes it)"
      case .markOlderRead:
        return "mark those older than a day read (a count: 7 days; undo undoes it)"
      case .undo:
        return "undo the last mark of many (mark-all-read, mark-above-read, mark-older-read), "
          + "right after it"
      case .openLink: return "open the link in the browser; a count opens that link of the text"
      case .toggleBookmark: return "bookmark, or remove the bookmark"
      case .toggleFullText: return "the full text (fetched, then kept), and back"
      case .play: return "play its audio or video (as news play)"
      case .download: return "download its audio or video in the background"
      case .reload: return "reload (the list changes when it answered)"
      case .reloadAll: return "reload every list, each row showing its progress"
      case .nextTag: return "only the lists of the next tag (then every list again)"
      case .filter: return "filter by a query, as news search reads it"
      case .clearFilter: return "clear the filter (without one: back)"
      case .saveSearch: return "save the filter's query as a saved search"
      case .help: return "these keys"
      }
    }
  }

  /// How `config.json` writes it.
  var name: String {
    switch self {
    case .named(let name): name.rawValue
    case .openQuery(let search): "open-query:" + search
    case .filter(let query): "filter:" + query
    case .command(let name): "command:" + name
    }
  }

  /// Reads an action's name: one of ``Name``, or `open-query:`, `filter:`, `command:` with its
  /// argument (not checked here: ``KeyMap`` checks it against the configuration).
  init?(_ text: String) {
    if let name = Name(rawValue: text) {
      self = .named(name)
      return
    }
    for (prefix, make) in [
      ("open-query:", BrowseAction.openQuery), ("filter:", BrowseAction.filter),
      ("command:", BrowseAction.command),
    ] where text.hasPrefix(prefix) {
      let argument = String(text.dropFirst(prefix.count))
      guard !argument.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
      self = make(argument)
      return
    }
    return nil
  }
}
