import NewsCore

extension BrowseState {
  /// Keys on the home screen: move, open a list (from the store at once, refreshed in the
  /// background), reload one or every list, keys, quit. None waits for the network.
  mutating func handleHome(_ key: Key) -> [BrowseEffect] {
    let count = home.count
    switch key {
    case .character("q"), .escape, .interrupt:
      return [.quit]
    case .character("j"), .down:
      moveHome(to: homeSelection + 1, count: count)
    case .character("k"), .up:
      moveHome(to: homeSelection - 1, count: count)
    case .pageDown, .character(" "):
      moveHome(to: homeSelection + listRows, count: count)
    case .pageUp:
      moveHome(to: homeSelection - listRows, count: count)
    case .character("g"), .home:
      moveHome(to: 0, count: count)
    case .character("G"), .end:
      moveHome(to: count - 1, count: count)
    case .enter, .right, .character("l"):
      guard home.indices.contains(homeSelection) else { return [] }
      return open(homeSelection)
    case .character("n"):
      return nextUnreadList(forward: true, after: homeSelection - 1)
    case .character("N"):
      return nextUnreadList(forward: false, after: homeSelection + 1)
    case .character("r"):
      guard home.indices.contains(homeSelection), !home[homeSelection].loading else { return [] }
      home[homeSelection].loading = true
      return [.refresh(channels: [homeSelection])]
    case .character("R"):
      let idle = home.indices.filter { !home[$0].loading }
      for index in idle { home[index].loading = true }
      return idle.isEmpty ? [] : [.refresh(channels: idle)]
    case .character("?"):
      helpReturn = screen
      screen = .help
      return [.displayed]
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

  private mutating func moveHome(to row: Int, count: Int) {
    homeSelection = min(max(row, 0), max(count - 1, 0))
    if homeSelection < homeScroll { homeScroll = homeSelection }
    if homeSelection >= homeScroll + listRows { homeScroll = homeSelection - listRows + 1 }
  }
}
