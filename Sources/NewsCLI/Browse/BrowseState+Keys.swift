import FeedParsing
import NewsCore

extension BrowseState {
  /// Applies `key`, through the key map (``KeyMap``): a key of a sequence waits for the rest,
  /// digits make a count for the next key; returns what the session must do.
  mutating func handle(_ key: Key) -> [BrowseEffect] {
    message = nil
    if filterInput != nil { return handleFilter(key) }
    if screen == .help {
      pendingKeys = []
      // Keys that move scroll the keys when they are more than the screen holds; any other
      // key closes the help, `q` too (it does not quit from there).
      if scrollHelp(key) { return [] }
      screen = helpReturn
      return []
    }
    if key == .interrupt { return [.quit] }
    let typed = pendingKeys + [key]
    switch keys.lookup(typed, in: keyContext) {
    case .prefix:
      pendingKeys = typed
      message = KeyName.describe(typed) + "…"
      return []
    case .unbound:
      pendingKeys = []
      if typed.count == 1, case .character(let character) = key, character.isASCII,
        let digit = character.wholeNumberValue
      {
        let number = min((count ?? 0) * 10 + digit, 9999)
        count = number
        let link = keys.keys(for: .named(.openLink), in: keyContext).first
        if case .article = screen, let link {
          message = "\(number)\(link) opens link \(number) of the text"
        } else {
          message = "\(number): a count for the next key"
        }
        return []
      }
      count = nil
      undoable = nil
      if typed.count > 1 {
        message = "\(KeyName.describe(typed)) does nothing here (? lists the keys)"
      }
      return []
    case .actions(let actions):
      pendingKeys = []
      let count = self.count
      self.count = nil
      // `undo` undoes mark-all-read only right after it.
      if actions != [.named(.undo)] { undoable = nil }
      var effects: [BrowseEffect] = []
      for action in actions {
        effects += perform(action, count: count)
        if effects.contains(.quit) { break }
      }
      return effects
    }
  }

  /// The key map's context of the screen up.
  var keyContext: KeyMap.Context {
    switch screen {
    case .home: .home
    case .article: .article
    case .list, .help: .list
    }
  }

  /// The terminal changed size.
  mutating func resize(width: Int, height: Int) {
    self.width = max(width, 10)
    self.height = max(height, 4)
    keepSelectionVisible()
  }

  /// A channel answered: the list is replaced as a whole. Returns what to do when `n` or `N`
  /// was waiting for this list (open its first, or last, unread article).
  @discardableResult
  mutating func loaded(
    heading: String, freshness: String, articles: [Article], read: Set<String>,
    bookmarked: Set<String>, withFullText: Set<String> = [], media: [String: [Enclosure]] = [:],
    downloaded: Set<String> = [], showsFullText: Bool = false
  ) -> [BrowseEffect] {
    let previous = selected?.id
    self.media = media
    self.downloaded = downloaded
    self.withFullText = withFullText
    self.showsFullText = showsFullText
    self.heading = heading
    self.freshness = freshness
    self.articles = articles
    self.read = read
    self.bookmarked = bookmarked
    loading = false
    // The same article stays selected after a reload when it is still listed.
    selection = previous.flatMap { id in visible.firstIndex { $0.id == id } } ?? 0
    keepSelectionVisible()
    syncRow()
    return seekingUnread()
  }

  /// A channel failed: the list stays, the footer says why.
  mutating func failed(_ reason: String) {
    loading = false
    message = reason
  }

  /// `f`: the full text instead of what the feed carries, and back; fetched in the background
  /// the first time (the footer says so; keys keep working).
  mutating func toggleFullText() -> [BrowseEffect] {
    guard let article = current else { return [] }
    switch fullTexts[article.id] {
    case .fetching?:
      message = "fetching the full text…"
      messageIsFullTextFetch = true
      return []
    case .had(let shown, let visible)?:
      fullTexts[article.id] = .had(shown, shown: !visible)
      articleScroll = 0
      message = visible ? "what the feed carries" : "full text"
      return []
    case nil:
      guard article.url != nil else {
        message = "this article has no link to fetch its full text from"
        return []
      }
      fullTexts[article.id] = .fetching
      message = "fetching the full text…"
      messageIsFullTextFetch = true
      return [.fetchFullText(article)]
    }
  }

  /// Back to every list; the row of this one shows what was read here.
  mutating func backHome() -> [BrowseEffect] {
    screen = .home
    if home.indices.contains(channel), !articles.isEmpty {
      home[channel].unread = articles.filter { !read.contains($0.id) }.count
      home[channel].total = articles.count
    }
    return [.displayed]
  }

  /// Filters the list by the query `text` (none when blank); a query that cannot be read is
  /// said in the footer and, when typed, left open to be mended.
  mutating func applyFilter(_ text: String) -> [BrowseEffect] {
    if text.allSatisfy(\.isWhitespace) {
      filter = []
      filterQuery = nil
    } else {
      do {
        filterQuery = try ArticleQuery(text, timeZone: timeZone)
      } catch {
        // Left open to be mended: what is wrong, and where.
        message = "\(error.problem) at column \(error.column)"
        return [.displayed]
      }
      filter = text.split(whereSeparator: \.isWhitespace).map(String.init)
    }
    filterInput = nil
    selection = 0
    scroll = 0
    // The kept full texts are looked in too, as news search does: read once a list.
    let missing = withFullText.filter { keptTexts[$0] == nil }
    if !filter.isEmpty, !missing.isEmpty {
      return [.loadKeptTexts(missing.sorted()), .displayed]
    }
    if !filter.isEmpty, visible.isEmpty { message = "nothing matches; Esc shows every article" }
    return []
  }

  private mutating func handleFilter(_ key: Key) -> [BrowseEffect] {
    switch key {
    case .enter:
      return applyFilter(filterInput ?? "")
    case .escape, .interrupt:
      filterInput = nil
    case .backspace:
      if filterInput?.isEmpty == false { filterInput?.removeLast() }
    case .character(let character):
      filterInput?.append(character)
    default:
      break
    }
    return []
  }

  mutating func openLink(_ number: Int? = nil) -> [BrowseEffect] {
    guard let article = current else { return [] }
    guard article.url != nil || number != nil else {
      message = "this article has no link"
      return []
    }
    read.insert(article.id)
    return [.openLink(article, number)]
  }

  mutating func toggleBookmark() -> [BrowseEffect] {
    guard let article = current else { return [] }
    let on = !bookmarked.contains(article.id)
    if on { bookmarked.insert(article.id) } else { bookmarked.remove(article.id) }
    message = on ? "bookmarked" : "bookmark removed"
    return [.setBookmark(article, on)]
  }

  /// The open article on its screen, the selected one on the list.
  /// `p`: the article's audio or video played (it is then read).
  mutating func playMedia() -> [BrowseEffect] {
    guard let article = current else { return [] }
    guard media[article.id] != nil else {
      message = "this article carries no audio or video"
      return []
    }
    read.insert(article.id)
    return [.play(article)]
  }

  /// `d`: the article's audio and video downloaded in the background.
  mutating func downloadMedia() -> [BrowseEffect] {
    guard let article = current else { return [] }
    guard media[article.id] != nil else {
      message = "this article carries no audio or video"
      return []
    }
    message = "downloading in the background…"
    return [.download(article)]
  }

  var current: Article? {
    if case .article(let id) = screen { return articles.first { $0.id == id } }
    return selected
  }

  /// `?`: the keys, until any key returns to this screen.
  mutating func showHelp() -> [BrowseEffect] {
    helpReturn = screen
    screen = .help
    helpScroll = 0
    return [.displayed]
  }

  /// The key map's context the help shows: the screen it goes back to.
  var helpContext: KeyMap.Context {
    switch helpReturn {
    case .home: .home
    case .article: .article
    case .list, .help: .list
    }
  }

  /// The rows the help shows: the context's keys, then how to quit at once.
  var helpRows: [(keys: String, summary: String)] {
    KeyTable.rows(keys, helpContext).map { ($0.keys.joined(separator: " "), $0.summary) }
      + [("C-c", "quit at once (exit 130); C-z suspends")]
  }

  /// How many of the help's rows do not fit on the screen (0: they all do).
  var helpOverflow: Int { max(0, helpRows.count - listRows) }

  /// Scrolls the help when `key` moves (down, up, a page) and its rows overflow the screen;
  /// whether it did.
  private mutating func scrollHelp(_ key: Key) -> Bool {
    let overflow = helpOverflow
    guard overflow > 0, case .actions(let actions) = keys.lookup([key], in: helpContext),
      actions.count == 1, case .named(let action) = actions[0]
    else { return false }
    switch action {
    case .down: helpScroll = min(helpScroll + 1, overflow)
    case .up: helpScroll = max(helpScroll - 1, 0)
    case .pageDown: helpScroll = min(helpScroll + listRows, overflow)
    case .pageUp: helpScroll = max(helpScroll - listRows, 0)
    default: return false
    }
    return true
  }

  /// Where a movement (`down`, `up`, a page, `top`, `bottom`) takes a position from `row`,
  /// `last` being the last one, `count` times (`top` and `bottom` with a count: that row);
  /// `nil` for any other action.
  func target(of action: BrowseAction.Name, from row: Int, last: Int, count: Int?) -> Int? {
    let times = max(count ?? 1, 1)
    switch action {
    case .down: return row + times
    case .up: return row - times
    case .pageDown: return row + listRows * times
    case .pageUp: return row - listRows * times
    case .top: return count.map { $0 - 1 } ?? 0
    case .bottom: return count.map { $0 - 1 } ?? last
    default: return nil
    }
  }

  /// Brings the article's first line back to `last` (its last page) when a key took it past.
  mutating func clampArticleScroll(last: Int?) {
    if let last { articleScroll = min(articleScroll, last) }
  }

  mutating func move(to row: Int, count: Int) {
    selection = min(max(row, 0), max(count - 1, 0))
    keepSelectionVisible()
  }

  mutating func keepSelectionVisible() {
    let count = visible.count
    selection = min(selection, max(count - 1, 0))
    if selection < scroll { scroll = selection }
    if selection >= scroll + listRows { scroll = selection - listRows + 1 }
    scroll = max(0, min(scroll, max(count - listRows, 0)))
  }
}
