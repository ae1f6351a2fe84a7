import NewsCore

extension BrowseState {
  /// Opens `article` on its screen, marking it read and asking for its counts.
  mutating func openArticle(_ article: Article) -> [BrowseEffect] {
    screen = .article(id: article.id)
    articleScroll = 0
    read.insert(article.id)
    syncRow()
    var effects: [BrowseEffect] = [.markRead(article.id), .displayed]
    // Kept already, or a source that shows it by default: the full text, fetched if need be.
    if fullTexts[article.id] == nil, article.url != nil,
      withFullText.contains(article.id) || showsFullText
    {
      fullTexts[article.id] = .fetching
      effects.append(.fetchFullText(article))
    }
    if article.url != nil, counts[article.id] == nil, countsPolicy.applies(to: article.provider) {
      counts[article.id] = .pending
      effects.insert(.loadCounts(article), at: 0)
    }
    return effects
  }

  /// `n` (or `N` backwards): opens the next unread article of this list, after the open one (on
  /// the list: from the selection); when this list has none left, the next list with unread
  /// ones, in the home screen's order. Every unread article of every list, each once.
  mutating func nextUnread(forward: Bool) -> [BrowseEffect] {
    let visible = self.visible
    var start = selection
    if case .article(let id) = screen, let index = visible.firstIndex(where: { $0.id == id }) {
      start = index + (forward ? 1 : -1)
    }
    let order: [Int]
    if forward {
      order = start < visible.count ? Array(max(start, 0)..<visible.count) : []
    } else {
      order = start >= 0 && !visible.isEmpty ? (0...min(start, visible.count - 1)).reversed() : []
    }
    if let index = order.first(where: { !read.contains(visible[$0].id) }) {
      selection = index
      keepSelectionVisible()
      return openArticle(visible[index])
    }
    return nextUnreadList(forward: forward, after: channel)
  }

  /// Opens the first list after (or before) `index`, going round, whose row counts unread
  /// articles, to open its first (or last) unread one once it is there.
  mutating func nextUnreadList(forward: Bool, after index: Int) -> [BrowseEffect] {
    let count = home.count
    guard count > 0 else { return [] }
    for step in 1...count {
      let candidate = ((index + (forward ? step : -step)) % count + count) % count
      guard candidate != channel || screen == .home, !gatherers.contains(candidate),
        (home[candidate].unread ?? 0) > 0
      else {
        continue
      }
      if candidate == channel, !articles.isEmpty {
        // The home screen's own list, loaded already.
        screen = .list
        selection = forward ? 0 : max(visible.count - 1, 0)
        return nextUnread(forward: forward)
      }
      homeSelection = homeRows.firstIndex(of: candidate) ?? homeSelection
      seeking = forward
      return open(candidate)
    }
    message = "no unread articles left"
    return []
  }

  /// What `n` waiting for this list does now that it is loaded.
  mutating func seekingUnread() -> [BrowseEffect] {
    guard let forward = seeking, screen == .list else { return [] }
    seeking = nil
    let visible = self.visible
    let unread = visible.indices.filter { !read.contains(visible[$0].id) }
    guard let index = forward ? unread.first : unread.last else {
      return nextUnreadList(forward: forward, after: channel)
    }
    selection = index
    keepSelectionVisible()
    return openArticle(visible[index])
  }

  /// `A`: every article of the list read; `u` right after undoes it.
  mutating func markListRead() -> [BrowseEffect] {
    let effects = markRead(visible, none: "every article here is read")
    // The whole list of a source: one mark of the source (one request to an account's server).
    if filter.isEmpty, sources.contains(channel), case .setRead(let ids, true)? = effects.first {
      return [.setSourceRead(channels[channel], ids)]
    }
    return effects
  }

  /// `u`: the articles `A` marked read are unread again.
  mutating func undoMarkListRead() -> [BrowseEffect] {
    guard let ids = undoable else { return [] }
    undoable = nil
    read.subtract(ids)
    syncRow()
    message = "marked \(ids.count) unread again"
    return [.setRead(ids, false)]
  }

  /// The home row of the open list counts what is read here.
  mutating func syncRow() {
    guard home.indices.contains(channel), !articles.isEmpty else { return }
    home[channel].unread = articles.filter { !read.contains($0.id) }.count
    home[channel].total = articles.count
  }
}
