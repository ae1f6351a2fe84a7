import Foundation
import NewsCore

extension BrowseState {
  /// Does `action` on the screen up (`count`: the digits typed before its key); an action that
  /// does nothing there does nothing.
  mutating func perform(_ action: BrowseAction, count: Int?) -> [BrowseEffect] {
    switch action {
    case .command(let name):
      guard let article = current, screen != .home else {
        message = "command:\(name) sends an article: open a list first"
        return []
      }
      message = "sending to \(name)…"
      return [.runCommand(name, article)]
    case .openQuery(let name):
      guard let index = channels.firstIndex(of: name) else {
        message = "no list \(name) (news sources lists the saved searches)"
        return []
      }
      return open(index)
    case .filter(let query):
      guard screen == .list else { return [] }
      return applyFilter(query)
    case .named(let name):
      switch screen {
      case .home: return performOnHome(name, count: count)
      case .list: return performOnList(name, count: count)
      case .article(let id): return performOnArticle(name, id: id, count: count)
      case .help: return []
      }
    }
  }

  private mutating func performOnHome(_ action: BrowseAction.Name, count: Int?) -> [BrowseEffect] {
    let rows = homeRows
    let selected = rows.indices.contains(homeSelection) ? rows[homeSelection] : nil
    if let row = target(of: action, from: homeSelection, last: rows.count - 1, count: count) {
      moveHome(to: row, count: rows.count)
      return []
    }
    switch action {
    case .quit, .back:
      return [.quit]
    case .open:
      guard let selected else { return [] }
      return open(selected)
    case .nextUnread:
      return nextUnreadList(forward: true, after: (selected ?? 0) - 1)
    case .prevUnread:
      return nextUnreadList(forward: false, after: (selected ?? 0) + 1)
    case .reload:
      guard let selected, !home[selected].loading else { return [] }
      home[selected].loading = true
      return [.refresh(channels: [selected])]
    case .nextTag:
      // The next tag, then every list again.
      let tags = Array(Set(channelTags.flatMap { $0 })).sorted()
      guard !tags.isEmpty else {
        message = "no list has tags (news sources set <name> --tags …)"
        return []
      }
      let next = homeTag.flatMap { tags.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
      homeTag = next < tags.count ? tags[next] : nil
      homeSelection = 0
      homeScroll = 0
      return []
    case .reloadAll:
      let idle = rows.filter { !home[$0].loading && !gatherers.contains($0) }
      for index in idle { home[index].loading = true }
      // Hidden sources are fetched too; the saved searches answer once they have.
      guard hasHidden, !hiddenLoading else { return idle.isEmpty ? [] : [.refresh(channels: idle)] }
      hiddenLoading = true
      let now = idle.filter { !searches.contains($0) }
      return (now.isEmpty ? [] : [.refresh(channels: now)])
        + [.reloadHidden(then: idle.filter { searches.contains($0) })]
    case .nextList, .prevList, .nextSource, .prevSource:
      return cycle(action)
    case .help:
      return showHelp()
    default:
      return []
    }
  }

  private mutating func performOnList(_ action: BrowseAction.Name, count: Int?) -> [BrowseEffect] {
    let total = visible.count
    if let row = target(of: action, from: selection, last: total - 1, count: count) {
      move(to: row, count: total)
      return []
    }
    if let effects = performOnArticles(action, count: count) { return effects }
    switch action {
    case .back:
      return backHome()
    case .clearFilter:
      // The filter is cleared; without one, back to every list.
      guard filter.isEmpty else {
        filter = []
        filterQuery = nil
        selection = 0
        scroll = 0
        return []
      }
      return backHome()
    case .open:
      guard let article = selected else { return [] }
      return openArticle(article)
    case .markAllRead: return markListRead()
    case .markAboveRead:
      return markRead(Array(visible.prefix(selection)), none: "no unread article above")
    case .markOlderRead:
      let days = max(count ?? 1, 1)
      let cutoff = now.addingTimeInterval(-Double(days) * 86_400)
      let older = visible.filter { ($0.publishedAt ?? .distantFuture) < cutoff }
      return markRead(
        older,
        none: "no unread article older than " + (days == 1 ? "a day" : "\(days) days"))
    case .undo: return undoMarkListRead()
    case .reload:
      guard !loading else { return [] }
      loading = true
      return [.load(channel: channel, refresh: true)]
    case .filter:
      filterInput = filter.joined(separator: " ")
      return []
    case .saveSearch:
      // The filter's words become a saved search: a list of its own from the next start on.
      guard !filter.isEmpty else {
        let slash = keys.keys(for: .named(.filter), in: .list).first ?? "filter"
        let save = keys.keys(for: .named(.saveSearch), in: .list).first ?? "save-search"
        message = "\(slash) and words first: \(save) then saves them as a list"
        return []
      }
      return [.saveSearch(filter)]
    default:
      return []
    }
  }

  private mutating func performOnArticle(
    _ action: BrowseAction.Name, id: String, count: Int?
  ) -> [BrowseEffect] {
    // The article's length is the renderer's to know: G and End go past the end, and the
    // session brings it back to the last page (``clampArticleScroll(last:)``) before drawing.
    if let line = target(of: action, from: articleScroll, last: Int.max / 2, count: count) {
      articleScroll = max(0, line)
      return []
    }
    if let effects = performOnArticles(action, count: count) { return effects }
    switch action {
    case .back:
      screen = .list
      return [.displayed]
    case .toggleFullText: return toggleFullText()
    default: return []
    }
  }

  /// What a list and an article do alike: on the selected or the open article, or another
  /// list; `nil` for the others.
  private mutating func performOnArticles(_ action: BrowseAction.Name, count: Int?)
    -> [BrowseEffect]?
  {
    switch action {
    case .quit: [.quit]
    case .nextUnread: nextUnread(forward: true)
    case .prevUnread: nextUnread(forward: false)
    case .toggleRead: toggleRead()
    case .openLink: openLink(count)
    case .toggleBookmark: toggleBookmark()
    case .play: playMedia()
    case .download: downloadMedia()
    case .nextList, .prevList, .nextSource, .prevSource: cycle(action)
    case .help: showHelp()
    default: nil
    }
  }

  /// The next or previous list (every list, or only feed sources'), going round; opened from
  /// the store at once, whatever is loading.
  private mutating func cycle(_ action: BrowseAction.Name) -> [BrowseEffect] {
    let forward = action == .nextList || action == .nextSource
    let candidates =
      action == .nextList || action == .prevList
      ? Array(channels.indices) : channels.indices.filter { sources.contains($0) }
    let from =
      screen == .home
      ? (homeRows.indices.contains(homeSelection) ? homeRows[homeSelection] : channel) : channel
    guard let next = Self.neighbour(of: from, in: candidates, forward: forward) else {
      message = action == .nextSource || action == .prevSource ? "no feed source to go to" : nil
      return []
    }
    guard next != channel || screen == .home else { return [] }
    return open(next)
  }

  /// The item after (or before) `index` in `candidates`, going round; `nil` without another.
  static func neighbour(of index: Int, in candidates: [Int], forward: Bool) -> Int? {
    guard !candidates.isEmpty else { return nil }
    if forward { return candidates.first { $0 > index } ?? candidates.first }
    return candidates.last { $0 < index } ?? candidates.last
  }

  /// `toggle-read`: the article read, or unread again.
  mutating func toggleRead() -> [BrowseEffect] {
    guard let article = current else { return [] }
    let wasRead = read.contains(article.id)
    if wasRead { read.remove(article.id) } else { read.insert(article.id) }
    syncRow()
    message = wasRead ? "marked unread" : "marked read"
    return [.setRead([article.id], !wasRead)]
  }

  /// Marks `articles` read, for `undo` to take back while still on the list; `none` is what
  /// the footer says when every one is read already.
  mutating func markRead(_ articles: [Article], none: String) -> [BrowseEffect] {
    let ids = articles.map(\.id).filter { !read.contains($0) }
    guard !ids.isEmpty else {
      message = none
      return []
    }
    read.formUnion(ids)
    syncRow()
    undoable = ids
    message = "marked \(ids.count) read (\(undoKey) undoes)"
    return [.setRead(ids, true)]
  }

  /// The key that undoes a mark, for the footer's message.
  var undoKey: String { keys.keys(for: .named(.undo), in: .list).first ?? "undo" }
}
