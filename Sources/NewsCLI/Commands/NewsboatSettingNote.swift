import NewsCore

/// newsboat settings that have no counterpart to carry because news does what they ask another
/// way, or always: what `news import newsboat` says of such a line instead of "no such setting",
/// so that a migrant learns where the behaviour went.
enum NewsboatSettingNote {
  /// Says where the behaviour went on each of `plan`'s settings that news has none of, when
  /// news does it another way.
  static func say(_ plan: inout NewsboatImport) {
    for (index, words) in plan.deferred
    where plan.lines[index].outcome == NewsboatImport.noSuchSetting {
      if let note = note(words) { plan.lines[index].outcome = note }
    }
  }

  /// What to say of `words` (a `config` line: a directive and its value), or `nil` when news
  /// has nothing of the kind.
  static func note(_ words: [String]) -> String? {
    let value = words.count == 2 ? words[1].lowercased() : ""
    let yes = ["yes", "true"].contains(value)
    switch words[0] {
    case "auto-reload" where yes:
      return "not needed: run news sync from cron, which asks only the sources that are due, "
        + "or let news serve --refresh reload (docs/commands.md)"
    case "reload-threads":
      return "not needed: news asks up to 96 sources at once, 12 a host (NEWS_CONCURRENCY and "
        + "NEWS_HOST_CONCURRENCY in docs/configuration.md)"
    case "refresh-on-startup" where yes:
      return "not needed: browse fetches a list when it is opened and R reloads every list; "
        + "news feed fetches what is due"
    case "show-read-articles" where !yes:
      return "a flag here: news browse --unread (and --unread on feed, search and bookmarks)"
    case "article-sort-order" where value == "date-desc" || value == "date":
      return "the default here: lists run newest first (NEWS_BROWSE_ORDER=newest)"
    case "prepopulate-query-feeds":
      return "not needed: a saved search lists what the store holds from the start"
    case "html-renderer":
      return "not needed: news shows HTML as text itself, its links numbered [1] "
        + "(news open <id> 1; 1o in browse)"
    case "external-url-viewer":
      return "not needed: an article's links are numbered [1] in its text "
        + "(news open <id> 1; 1o in browse)"
    case "cleanup-on-quit":
      return "not needed: news keeps its store as it goes, and forgets an article "
        + "NEWS_RETENTION_DAYS after its feed last listed it (docs/configuration.md)"
    case "define-filter" where words.count == 3:
      // A named filter of the feed list: here a query, given where a list is filtered.
      guard case .success(let query) = Result(catching: { try NewsboatFilter.translate(words[2]) })
      else { return nil }
      return "a query here: / in browse, news feed --where '\(query)', or a saved search: "
        + "news sources add --search '\(query)' --name <name>"
    case "ignore-mode":
      return "not needed: an ignored item is stored, hidden from the lists and counts "
        + "(news feed --show-ignored shows it; news search finds it)"
    case "notify-always", "notify-beep", "notify-format", "notify-screen", "notify-xterm":
      return "a hook here: config.json's \"hooks\": {\"newItem\": …} runs a command for each "
        + "new item (notify-program becomes one; docs/commands.md)"
    case "text-width":
      return "an environment variable here: news wraps to the terminal's width, or to "
        + "COLUMNS (docs/configuration.md)"
    case "save-path":
      return "not needed: news keeps articles in its store (news bookmark keeps one for good); "
        + "news show <id> > file saves one as text, --json as JSON"
    default:
      return nil
    }
  }
}
