import FeedParsing
import Foundation
import NewsCore

/// Draws a ``BrowseState`` on a ``ScreenGrid``: header, list or article or keys, footer. A pure
/// function of the state (and the clock, for ages), so tests read the screen without a terminal.
struct BrowseRenderer {
  /// Bold, dim and reverse where the terminal and `NO_COLOR` allow; the selection also has a `>`.
  var styled: Bool
  var unicode: Bool
  var now: Date
  var timeZone: TimeZone

  /// Each screen's keys, in the order shown; the last two (`? keys`, `q …`) are always shown, the
  /// others as the width allows, first ones first.
  static let homeKeys = [
    "j/k move", "Enter open", "n unread", "r reload", "R all", "t tag", "? keys", "q quit",
  ]
  static let listKeys = [
    "j/k move", "Enter read", "o link", "b bookmark", "r reload", "/ filter", "Tab next", "? keys",
    "q back",
  ]
  static let articleKeys = [
    "j/k scroll", "n next unread", "f full text", "o link", "b bookmark", "? keys", "q back",
  ]

  /// `keys` as one line of at most `width` columns: the last two always, the others from the
  /// first while they fit.
  static func keyLine(_ keys: [String], width: Int) -> String {
    let kept = Array(keys.suffix(2))
    var chosen: [String] = []
    var used = kept.joined(separator: "  ").count
    for key in keys.dropLast(2) where used + 2 + key.count <= width {
      chosen.append(key)
      used += 2 + key.count
    }
    return (chosen + kept).joined(separator: "  ")
  }

  func render(_ state: BrowseState) -> ScreenGrid {
    var grid = ScreenGrid(width: state.width, height: state.height)
    switch state.screen {
    case .home: drawHome(state, on: &grid)
    case .list: drawList(state, on: &grid)
    case .article(let id): drawArticle(state, id: id, on: &grid)
    case .help: drawHelp(state, on: &grid)
    }
    drawFooter(state, on: &grid)
    return grid
  }

  private func attributes(_ attributes: ScreenGrid.Attributes) -> ScreenGrid.Attributes {
    styled ? attributes : []
  }

  private func drawHeader(_ text: String, detail: String, on grid: inout ScreenGrid) {
    let end = grid.put(clean(text), row: 0, attributes([.bold]))
    grid.put("  " + detail, row: 0, column: end)
    grid.highlight(row: 0, attributes([.reverse]))
  }

  private func drawList(_ state: BrowseState, on grid: inout ScreenGrid) {
    let visible = state.visible
    let unread = state.articles.filter { !state.read.contains($0.id) }.count
    var detail = "\(visible.count) article\(visible.count == 1 ? "" : "s") · \(unread) unread"
    if !state.filter.isEmpty { detail += " · \"\(state.filter.joined(separator: " "))\"" }
    detail += " · " + (state.loading ? "loading…" : state.freshness)
    let channel =
      state.channels.indices.contains(state.channel) ? state.channels[state.channel] : ""
    drawHeader(
      state.heading.isEmpty ? channel : state.heading, detail: detail, on: &grid)
    if visible.isEmpty {
      grid.put(
        state.loading
          ? "  loading…"
          : state.filter.isEmpty ? "  No articles." : "  Nothing matches the filter.",
        row: 1)
      return
    }
    let numberWidth = String(visible.count).count
    for row in 0..<state.listRows {
      let index = state.scroll + row
      guard visible.indices.contains(index) else { break }
      let article = visible[index]
      let selected = index == state.selection
      let isRead = state.read.contains(article.id)
      var column = grid.put(selected ? ">" : " ", row: row + 1)
      // Every mark that applies, each in its own column: `•` (`N`) unread, `*` bookmarked, `≡`
      // (`+`) its full text kept.
      let mark = isRead ? " " : (unicode ? "•" : "N")
      let saved = state.bookmarked.contains(article.id) ? "*" : " "
      let full = state.withFullText.contains(article.id) ? (unicode ? "≡" : "+") : " "
      column = grid.put(mark + saved + full, row: row + 1, column: column)
      let number = String(index + 1)
      column = grid.put(
        String(repeating: " ", count: numberWidth - number.count) + number + ". ", row: row + 1,
        column: column)
      // `♪` (`[media]`): it carries audio or video; `↓` (`[downloaded]`): news download has it.
      var media = state.withMedia.contains(article.id) ? (unicode ? " ♪" : " [media]") : ""
      if state.downloaded.contains(article.id) { media += unicode ? "↓" : "[downloaded]" }
      column = grid.put(
        clean(article.title, html: article.textMayHoldHTML) + media, row: row + 1,
        column: column, attributes(isRead ? [] : [.bold]))
      var meta = [article.source, article.publishedAt.map { RelativeTime.describe($0, now: now) }]
        .compactMap { $0 }.map(clean).filter { !$0.isEmpty }.joined(separator: " · ")
      // A one-line summary where the width allows.
      if grid.width >= 100, let summary = article.description.map(clean), !summary.isEmpty {
        meta += (meta.isEmpty ? "" : " — ") + summary
      }
      if !meta.isEmpty { grid.put("  " + meta, row: row + 1, column: column, attributes([.dim])) }
      if selected { grid.highlight(row: row + 1, attributes([.reverse])) }
    }
  }

  /// Every list, one a row: name, unread and total, state; `~` (or a spinner glyph) where a
  /// fetch is under way, `!` where the last one failed.
  private func drawHome(_ state: BrowseState, on grid: inout ScreenGrid) {
    let rows = state.homeRows
    // The lists gathering the others' items (All unread, tags) count nothing twice.
    let unread = rows.filter { !state.gatherers.contains($0) }
      .compactMap { state.home[$0].unread }.reduce(0, +)
    let loading = rows.filter { state.home[$0].loading }.count
    drawHeader(
      "news",
      detail: "\(rows.count) list\(rows.count == 1 ? "" : "s") · \(unread) unread"
        + (state.homeTag.map { " · tag \(clean($0))" } ?? "")
        + (loading > 0 ? " · loading \(loading)…" : ""), on: &grid)
    let nameWidth = min(max(state.channels.map(\.count).max() ?? 0, 4), 32)
    for row in 0..<state.listRows {
      let position = state.homeScroll + row
      guard rows.indices.contains(position) else { break }
      let index = rows[position]
      guard state.channels.indices.contains(index) else { break }
      let line = state.home[index]
      let selected = position == state.homeSelection
      var column = grid.put(selected ? ">" : " ", row: row + 1)
      let mark = line.loading ? (unicode ? "⟳" : "~") : line.failed ? "!" : " "
      column = grid.put(mark + " ", row: row + 1, column: column)
      let name = String(clean(state.channels[index]).prefix(nameWidth))
      column = grid.put(
        name + String(repeating: " ", count: nameWidth - name.count) + "  ", row: row + 1,
        column: column, attributes((line.unread ?? 0) > 0 ? [.bold] : []))
      let counts =
        line.total.map { total in "\(line.unread ?? 0)/\(total)" } ?? "–"
      column = grid.put(
        String(repeating: " ", count: max(0, 9 - counts.count)) + counts + "  ", row: row + 1,
        column: column)
      grid.put(clean(line.status), row: row + 1, column: column, attributes([.dim]))
      if selected { grid.highlight(row: row + 1, attributes([.reverse])) }
    }
  }

  /// The open article's lines, each with its attributes, as drawn: what G and End go to the
  /// end of (``lastArticleScroll(_:)``).
  func articleLines(_ state: BrowseState, id: String) -> (
    heading: String, lines: [(String, ScreenGrid.Attributes)]
  ) {
    guard var article = state.articles.first(where: { $0.id == id }) else { return ("", []) }
    var status: String?
    switch state.fullTexts[id] {
    case .had(let full, true)?:
      article = full
      status = "Full text"
    case .fetching?:
      status = unicode ? "Full text: fetching…" : "Full text: fetching..."
    default:
      break
    }
    let heading = article.source.map(clean) ?? article.provider
    let width = max(state.width - 4, 10)
    var lines: [(String, ScreenGrid.Attributes)] = []
    for line in TextWrapper.wrap(clean(article.title, html: article.textMayHoldHTML), width: width)
    {
      lines.append((line, [.bold]))
    }
    let meta = [
      article.author.map { "by " + clean($0, html: article.textMayHoldHTML) },
      article.publishedAt.map { ArticleRenderer.localTime($0, in: timeZone) },
    ].compactMap { $0 }.joined(separator: " · ")
    if !meta.isEmpty { lines.append((meta, [.dim])) }
    if let status { lines.append((status, [.dim])) }
    lines.append(("", []))
    let body = article.readingTexts
      .map {
        TerminalSanitizer.clean(
          article.textMayHoldHTML ? HTMLText.plain($0) : $0, keepNewlines: true)
      }
      .filter { !$0.isEmpty }.joined(separator: "\n\n")
    for line in TextWrapper.wrap(body.isEmpty ? "(no text)" : body, width: width) {
      lines.append((line, []))
    }
    lines.append(("", []))
    lines.append(("Link:  " + (article.url.map(clean) ?? "none"), []))
    if let image = article.imageURL { lines.append(("Image: " + clean(image), [])) }
    switch state.counts[id] {
    case .pending?:
      lines.append(("Likes and comments: loading…", [.dim]))
    case .loaded(let likes, let comments)?:
      let likesText = likes.map(String.init) ?? "unavailable"
      let commentsText = comments.map(String.init) ?? "unavailable"
      lines.append(
        (
          unicode
            ? "♥ \(likesText) · 💬 \(commentsText)"
            : "likes \(likesText) · comments \(commentsText)", []
        ))
    case nil:
      break
    }
    if state.bookmarked.contains(id) { lines.append(("Bookmarked", [.dim])) }
    return (heading, lines)
  }

  /// The last first line of the open article (its last page), for G and End.
  func lastArticleScroll(_ state: BrowseState) -> Int? {
    guard case .article(let id) = state.screen else { return nil }
    return max(articleLines(state, id: id).lines.count - state.listRows, 0)
  }

  private func drawArticle(_ state: BrowseState, id: String, on grid: inout ScreenGrid) {
    guard state.articles.contains(where: { $0.id == id }) else { return }
    let (heading, lines) = articleLines(state, id: id)
    drawHeader(heading, detail: "", on: &grid)
    let first = min(state.articleScroll, max(lines.count - state.listRows, 0))
    for (row, line) in lines.dropFirst(first).prefix(state.listRows).enumerated() {
      grid.put(line.0, row: row + 1, column: 2, attributes(line.1))
    }
  }

  private func drawHelp(_ state: BrowseState, on grid: inout ScreenGrid) {
    drawHeader("Keys", detail: "any key to go back", on: &grid)
    let keys = [
      ("j k ↓ ↑", "move (scroll in an article)"), ("PgDn PgUp Space", "a page"),
      ("g G Home End", "first, last (in an article: its start, its end)"),
      ("Enter l →", "read the article (marks it read)"),
      ("Enter", "on the home screen: open the list (from the store at once)"),
      ("Esc Backspace q h ←", "back (article, list, home, quit)"),
      ("o", "open the link in the browser"),
      ("b", "bookmark, or remove the bookmark"),
      ("f", "the article's full text (fetched, then kept), and back; ≡ marks those kept"),
      ("p", "play its audio or video (♪) with NEWS_PLAYER or mpv, as news play"),
      ("d", "download its audio or video in the background, as news download (↓ once there)"),
      ("n N", "next, previous unread article (the next list with some when none is left)"),
      ("A u", "mark the list read; u right after undoes it"),
      ("t", "on the home screen: only the lists of the next tag (then every list again)"),
      ("r", "reload (the list changes when it answered)"),
      ("R", "on the home screen: reload every list, each row showing its progress"),
      ("/", "filter by a query, as news search reads it: words, is:unread, age<2d… (Esc clears)"),
      ("s", "save the filter's query as a saved search (a list of its own)"),
      ("Tab Shift-Tab", "next, previous provider or feed source"), ("?", "these keys"),
      ("q Ctrl-C", "quit"),
    ]
    for (row, key) in keys.prefix(state.listRows).enumerated() {
      let column = grid.put("  " + key.0, row: row + 1, attributes([.bold]))
      grid.put(key.1, row: row + 1, column: max(column + 2, 20))
    }
  }

  private func drawFooter(_ state: BrowseState, on grid: inout ScreenGrid) {
    let row = grid.height - 1
    if let input = state.filterInput {
      grid.put("/" + input + (unicode ? "▏" : "_"), row: row)
      return
    }
    if let message = state.message {
      grid.put(clean(message), row: row, attributes([.bold]))
      return
    }
    let keys: String
    switch state.screen {
    case .home: keys = Self.keyLine(Self.homeKeys, width: grid.width)
    case .list: keys = Self.keyLine(Self.listKeys, width: grid.width)
    case .article: keys = Self.keyLine(Self.articleKeys, width: grid.width)
    case .help: keys = "any key: back"
    }
    grid.put(keys, row: row, attributes([.dim]))
  }

  private func clean(_ text: String) -> String {
    TerminalSanitizer.clean(HTMLText.plain(text))
  }

  /// Cleaned as the article's provider needs: HTML only where it may be (see
  /// `Article.textMayHoldHTML`).
  private func clean(_ text: String, html: Bool) -> String {
    TerminalSanitizer.clean(html ? HTMLText.plain(text) : text)
  }
}
