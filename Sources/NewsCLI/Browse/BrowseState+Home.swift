import NewsCore

extension BrowseState {
  /// Keys on the home screen: move, open a list (from the store at once, refreshed in the
  /// background), reload one or every list, keys, quit. None waits for the network.
  mutating func handleHome(_ key: Key) -> [BrowseEffect] {
    let rows = homeRows
    let count = rows.count
    let selected = rows.indices.contains(homeSelection) ? rows[homeSelection] : nil
    if let row = target(of: key, from: homeSelection, last: count - 1) {
      moveHome(to: row, count: count)
      return []
    }
    switch key {
    case .character("q"), .escape, .interrupt:
      return [.quit]
    case .enter, .right, .character("l"):
      guard let selected else { return [] }
      return open(selected)
    case .character("n"):
      return nextUnreadList(forward: true, after: (selected ?? 0) - 1)
    case .character("N"):
      return nextUnreadList(forward: false, after: (selected ?? 0) + 1)
    case .character("r"):
      guard let selected, !home[selected].loading else { return [] }
      home[selected].loading = true
      return [.refresh(channels: [selected])]
    case .character("t"):
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
    case .character("R"):
      let idle = rows.filter { !home[$0].loading && !gatherers.contains($0) }
      for index in idle { home[index].loading = true }
      return idle.isEmpty ? [] : [.refresh(channels: idle)]
    case .character("?"):
      return showHelp()
    default:
      break
    }
    return []
  }

  /// Opens the list of `index`: at once, with what was loaded of it before (or nothing yet).
  mutating func open(_ index: Int) -> [BrowseEffect] {
    let reopening = index == channel && !articles.isEmpty
    if !reopening {
      articles = []
      heading = ""
      freshness = ""
      selection = 0
      scroll = 0
    }
    channel = index
    filter = []
    screen = .list
    loading = true
    return [.load(channel: index, refresh: false), .displayed]
  }

  /// A row's counts and state, from the store or an answer.
  mutating func updateRow(
    _ index: Int, unread: Int?, total: Int?, status: String, failed: Bool = false,
    loading: Bool = false
  ) {
    guard home.indices.contains(index) else { return }
    home[index] = HomeRow(
      unread: unread ?? home[index].unread, total: total ?? home[index].total, status: status,
      loading: loading, failed: failed)
  }

  /// The channels the home screen lists: every one, or those of ``homeTag``.
  var homeRows: [Int] {
    guard let homeTag else { return Array(home.indices) }
    return home.indices.filter {
      channelTags.indices.contains($0) && channelTags[$0].contains(homeTag)
    }
  }

  private mutating func moveHome(to row: Int, count: Int) {
    homeSelection = min(max(row, 0), max(count - 1, 0))
    if homeSelection < homeScroll { homeScroll = homeSelection }
    if homeSelection >= homeScroll + listRows { homeScroll = homeSelection - listRows + 1 }
  }
}
