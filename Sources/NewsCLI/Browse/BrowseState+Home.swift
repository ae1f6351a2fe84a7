import NewsCore

extension BrowseState {
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
      loading: loading, failed: failed, filled: true)
  }

  /// `failed: cannot reach …`: a home row's failure, without the `source a: ` its message
  /// begins with (the row names the source already; the width goes to the reason).
  func failedStatus(_ reason: String, of index: Int) -> String {
    guard channels.indices.contains(index) else { return "failed: " + reason }
    return "failed: " + SourceMessage.withoutName(reason, of: channels[index])
  }

  /// The channels the home screen lists: every one, or those of ``homeTag``.
  var homeRows: [Int] {
    guard let homeTag else { return Array(home.indices) }
    return home.indices.filter {
      channelTags.indices.contains($0) && channelTags[$0].contains(homeTag)
    }
  }

  /// The unread items the home screen's header counts, each once: All unread's count (with a
  /// tag, the tag's list's) once it is had; until then the rows' sum, the lists gathering the
  /// others' left out. A saved search repeats its sources' items, and an item may be in two
  /// feeds: the rows' sum would count them twice.
  var homeUnread: Int {
    let rows = homeRows
    let gathering =
      homeTag.map { tag in rows.first { gatherers.contains($0) && channelTags[$0] == [tag] } }
      ?? allUnreadRow
    if let gathering, home.indices.contains(gathering), let unread = home[gathering].unread {
      return unread
    }
    return rows.filter { !gatherers.contains($0) }.compactMap { home[$0].unread }.reduce(0, +)
  }

  mutating func moveHome(to row: Int, count: Int) {
    homeSelection = min(max(row, 0), max(count - 1, 0))
    if homeSelection < homeScroll { homeScroll = homeSelection }
    if homeSelection >= homeScroll + listRows { homeScroll = homeSelection - listRows + 1 }
  }
}
