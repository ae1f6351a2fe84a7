import NewsCore

extension BrowseState {
  /// Applies `key`; returns what the session must do.
  mutating func handle(_ key: Key) -> [BrowseEffect] {
    message = nil
    // `u` undoes `A` only right after it, on the same list.
    if key != .character("u") { undoable = nil }
    // A link's number is the digits typed just before `o`.
    let number = linkNumber
    if case .character(let character) = key, character.isASCII,
      let digit = character.wholeNumberValue,
      case .article = screen
    {
      linkNumber = min((number ?? 0) * 10 + digit, 9999)
      message = "\(linkNumber!)o opens link \(linkNumber!) of the text"
      return []
    }
    linkNumber = nil
    if key == .character("o"), let number, case .article = screen { return openLink(number) }
    if filterInput != nil { return handleFilter(key) }
    switch screen {
    case .help:
      // Any key closes the help, `q` too (it does not quit from there).
      screen = helpReturn
      return []
    case .home:
      return handleHome(key)
    case .article(let id):
      return handleArticle(key, id: id)
    case .list:
      return handleList(key)
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
    bookmarked: Set<String>, withFullText: Set<String> = [], withMedia: Set<String> = [],
    downloaded: Set<String> = [], showsFullText: Bool = false
  ) -> [BrowseEffect] {
    let previous = selected?.id
    self.withMedia = withMedia
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

  private mutating func handleList(_ key: Key) -> [BrowseEffect] {
    let count = visible.count
    if let row = target(of: key, from: selection, last: count - 1) {
      move(to: row, count: count)
      return []
    }
    switch key {
    case .interrupt:
      return [.quit]
    case .character("q"), .left, .character("h"):
      return backHome()
    case .escape where filter.isEmpty:
      return backHome()
    case .enter, .right, .character("l"):
      guard let article = selected else { return [] }
      return openArticle(article)
    case .character("n"):
      return nextUnread(forward: true)
    case .character("N"):
      return nextUnread(forward: false)
    case .character("A"):
      return markListRead()
    case .character("u"):
      return undoMarkListRead()
    case .character("o"):
      return openLink()
    case .character("b"):
      return toggleBookmark()
    case .character("p"):
      return playMedia()
    case .character("d"):
      return downloadMedia()
    case .character("r"):
      guard !loading else { return [] }
      loading = true
      return [.load(channel: channel, refresh: true)]
    case .character("/"):
      filterInput = filter.joined(separator: " ")
    case .character("s"):
      // The filter's words become a saved search: a list of its own from the next start on.
      guard !filter.isEmpty else {
        message = "/ and words first: s then saves them as a list"
        return []
      }
      return [.saveSearch(filter)]
    case .tab, .backTab:
      // Never waits: the next list comes from the store at once, whatever is loading.
      guard channels.count > 1 else { return [] }
      return open((channel + (key == .tab ? 1 : channels.count - 1)) % channels.count)
    case .character("?"):
      return showHelp()
    case .escape where !filter.isEmpty:
      filter = []
      filterQuery = nil
      selection = 0
      scroll = 0
    default:
      break
    }
    return []
  }

  private mutating func handleArticle(_ key: Key, id: String) -> [BrowseEffect] {
    // The article's length is the renderer's to know: G and End go past the end, and the
    // session brings it back to the last page (``clampArticleScroll(last:)``) before drawing.
    if let line = target(of: key, from: articleScroll, last: Int.max / 2) {
      articleScroll = max(0, line)
      return []
    }
    switch key {
    case .escape, .backspace, .character("q"), .left, .character("h"):
      screen = .list
      return [.displayed]
    case .interrupt:
      return [.quit]
    case .character("n"):
      return nextUnread(forward: true)
    case .character("N"):
      return nextUnread(forward: false)
    case .character("o"):
      return openLink()
    case .character("b"):
      return toggleBookmark()
    case .character("f"):
      return toggleFullText()
    case .character("p"):
      return playMedia()
    case .character("d"):
      return downloadMedia()
    case .character("?"):
      return showHelp()
    default:
      break
    }
    return []
  }

  /// `f`: the full text instead of what the feed carries, and back; fetched in the background
  /// the first time (the footer says so; keys keep working).
  mutating func toggleFullText() -> [BrowseEffect] {
    guard let article = current else { return [] }
    switch fullTexts[article.id] {
    case .fetching?:
      message = "fetching the full text…"
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
      return [.fetchFullText(article)]
    }
  }

  /// Back to every list; the row of this one shows what was read here.
  private mutating func backHome() -> [BrowseEffect] {
    screen = .home
    if home.indices.contains(channel), !articles.isEmpty {
      home[channel].unread = articles.filter { !read.contains($0.id) }.count
      home[channel].total = articles.count
    }
    return [.displayed]
  }

  private mutating func handleFilter(_ key: Key) -> [BrowseEffect] {
    switch key {
    case .enter:
      let text = filterInput ?? ""
      if text.allSatisfy(\.isWhitespace) {
        filter = []
        filterQuery = nil
      } else {
        do {
          filterQuery = try ArticleQuery(text)
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

  private mutating func openLink(_ number: Int? = nil) -> [BrowseEffect] {
    guard let article = current else { return [] }
    guard article.url != nil || number != nil else {
      message = "this article has no link"
      return []
    }
    read.insert(article.id)
    return [.openLink(article, number)]
  }

  private mutating func toggleBookmark() -> [BrowseEffect] {
    guard let article = current else { return [] }
    let on = !bookmarked.contains(article.id)
    if on { bookmarked.insert(article.id) } else { bookmarked.remove(article.id) }
    message = on ? "bookmarked" : "bookmark removed"
    return [.setBookmark(article, on)]
  }

  /// The open article on its screen, the selected one on the list.
  /// `p`: the article's audio or video played (it is then read).
  private mutating func playMedia() -> [BrowseEffect] {
    guard let article = current else { return [] }
    guard withMedia.contains(article.id) else {
      message = "this article carries no audio or video"
      return []
    }
    read.insert(article.id)
    return [.play(article)]
  }

  /// `d`: the article's audio and video downloaded in the background.
  private mutating func downloadMedia() -> [BrowseEffect] {
    guard let article = current else { return [] }
    guard withMedia.contains(article.id) else {
      message = "this article carries no audio or video"
      return []
    }
    message = "downloading in the background…"
    return [.download(article)]
  }

  private var current: Article? {
    if case .article(let id) = screen { return articles.first { $0.id == id } }
    return selected
  }

  /// `?`: the keys, until any key returns to this screen.
  mutating func showHelp() -> [BrowseEffect] {
    helpReturn = screen
    screen = .help
    return [.displayed]
  }

  /// Where a movement key (`j` `k` down up, space and the page keys, `g` `G` home end) takes a
  /// position from `row`, `last` being the last one; `nil` for any other key.
  func target(of key: Key, from row: Int, last: Int) -> Int? {
    switch key {
    case .character("j"), .down: row + 1
    case .character("k"), .up: row - 1
    case .pageDown, .character(" "): row + listRows
    case .pageUp: row - listRows
    case .character("g"), .home: 0
    case .character("G"), .end: last
    default: nil
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
