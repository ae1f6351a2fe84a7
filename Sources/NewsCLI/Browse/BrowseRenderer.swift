import FeedParsing
import Foundation
import NewsCore

/// Draws a ``BrowseState`` on a ``ScreenGrid``: header, list or article or keys, footer. A pure
/// function of the state (and the clock, for ages), so tests read the screen without a terminal.
struct BrowseRenderer {
  /// Styles where the terminal and `NO_COLOR` allow; the selection also has a `>`.
  var styled: Bool
  var unicode: Bool
  var now: Date
  var timeZone: TimeZone
  /// How each element is drawn (`"theme"` and `"colors"`).
  var theme = Theme.standard
  /// `"highlight"`: rows a query matches, words in an article's text.
  var highlights: [HighlightRule] = []
  /// The time the highlights' regular expressions may take over the session, with their
  /// compiled forms: every frame's matchers share it, so an expression is compiled once and one
  /// stopped stays stopped.
  let highlightBudget = PatternBudget()

  /// Each screen's footer: actions (the first key of each shown, `/` between) and what they
  /// do; the last two always shown, the others as the width allows, first ones first.
  static let footers: [KeyMap.Context: [([BrowseAction.Name], String)]] = [
    .home: [
      ([.down, .up], "move"), ([.open], "open"), ([.nextUnread], "unread"), ([.reload], "reload"),
      ([.reloadAll], "all"), ([.nextTag], "tag"), ([.help], "keys"), ([.quit], "quit"),
    ],
    .list: [
      ([.down, .up], "move"), ([.open], "read"), ([.openLink], "link"),
      ([.toggleBookmark], "bookmark"), ([.reload], "reload"), ([.filter], "filter"),
      ([.nextList], "next"), ([.help], "keys"), ([.back], "back"),
    ],
    .article: [
      ([.down, .up], "scroll"), ([.nextUnread], "next unread"), ([.toggleFullText], "full text"),
      ([.openLink], "link"), ([.toggleBookmark], "bookmark"), ([.help], "keys"), ([.back], "back"),
    ],
  ]

  /// The footer's entries for `context` with the keys in force (`j/k move`); an action without
  /// a key is left out.
  static func footerKeys(_ context: KeyMap.Context, keys: KeyMap) -> [String] {
    (footers[context] ?? []).compactMap { actions, label in
      let names = actions.compactMap { keys.keys(for: .named($0), in: context).first }
      guard names.count == actions.count else { return nil }
      return names.joined(separator: "/") + " " + label
    }
  }

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

  /// The theme's style of `element` (plain without styles), with `extra` laid over it.
  private func style(_ element: Theme.Element, _ extra: TextStyle = .plain) -> TextStyle {
    styled ? theme[element].with(extra) : .plain
  }

  private var bold: TextStyle { styled ? TextStyle(bold: true) : .plain }
  private var dim: TextStyle { styled ? TextStyle(dim: true) : .plain }

  private func drawHeader(_ text: String, detail: String, on grid: inout ScreenGrid) {
    // Too wide for the screen, each ends in a mark rather than mid-word, as the rows do.
    let mark = unicode ? "…" : "~"
    let end = grid.put(clean(text), row: 0, column: 0, bold, cutMark: mark)
    if !detail.isEmpty { grid.put("  " + detail, row: 0, column: end, .plain, cutMark: mark) }
    grid.highlight(row: 0, style(.header))
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
    // The highlight rules with a query, matched as the filter is (``BrowseState/queryFacts``).
    var matchers = queryHighlights(state)
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
      column = grid.put(mark, row: row + 1, column: column, style(isRead ? .read : .unread))
      column = grid.put(saved, row: row + 1, column: column, style(.bookmarked))
      column = grid.put(full, row: row + 1, column: column)
      let number = String(index + 1)
      column = grid.put(
        String(repeating: " ", count: numberWidth - number.count) + number + ". ", row: row + 1,
        column: column)
      // `♪` (`[media]`): it carries audio or video; `↓` (`[downloaded]`): news download has it.
      var media = state.media[article.id] != nil ? (unicode ? " ♪" : " [media]") : ""
      if state.downloaded.contains(article.id) { media += unicode ? "↓" : "[downloaded]" }
      // Too wide, the title ends in a mark; the source and the age are drawn only whole (a date
      // cut to `30` would say another one), and the summary ends in a mark.
      let cut = unicode ? "…" : "~"
      column = grid.put(
        clean(article.title, html: article.textMayHoldHTML) + media, row: row + 1,
        column: column, style(isRead ? .read : .unread), cutMark: cut)
      let source = article.publisher.map(clean) ?? ""
      let age = article.publishedAt.map { RelativeTime.describe($0, now: now) } ?? ""
      let width = grid.width
      func fits(_ text: String) -> Bool { TextWrapper.columns(text[...]) <= width - column }
      var separator = "  "
      if !source.isEmpty, fits(separator + source) {
        column = grid.put(separator + source, row: row + 1, column: column, style(.source))
        separator = " · "
      }
      if !age.isEmpty, fits(separator + age) {
        column = grid.put(separator, row: row + 1, column: column, style(.source))
        column = grid.put(age, row: row + 1, column: column, style(.date))
        separator = " — "
      } else if !source.isEmpty {
        separator = " — "
      }
      // A one-line summary where the width allows.
      if grid.width >= 100, let summary = article.description.map(clean), !summary.isEmpty,
        fits(separator + "x")
      {
        grid.put(separator + summary, row: row + 1, column: column, style(.source), cutMark: cut)
      }
      // The rules fold the row's fields once between them.
      var folds = QueryMatcher.FoldedFields()
      if styled,
        let index = matchers.indices.first(where: {
          matchers[$0].matcher.matches(article, sharing: &folds)
        })
      {
        grid.highlight(row: row + 1, from: 1, matchers[index].style)
      }
      if selected { grid.highlight(row: row + 1, style(.selection)) }
    }
  }

  /// Every list, one a row: name, unread and total, state; `~` (or a spinner glyph) where a
  /// fetch is under way, `!` where the last one failed.
  private func drawHome(_ state: BrowseState, on grid: inout ScreenGrid) {
    let rows = state.homeRows
    let unread = state.homeUnread
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
      column = grid.put(
        mark, row: row + 1, column: column,
        line.loading ? style(.progress) : line.failed ? style(.error) : .plain)
      column = grid.put(" ", row: row + 1, column: column)
      let name = String(clean(state.channels[index]).prefix(nameWidth))
      column = grid.put(
        name + String(repeating: " ", count: nameWidth - name.count) + "  ", row: row + 1,
        column: column,
        // A tag's list (`#tech`) in the tag's style, over its state's.
        style((line.unread ?? 0) > 0 ? .unread : .read)
          .with(name.hasPrefix("#") ? style(.tag) : .plain))
      let counts =
        line.total.map { total in "\(line.unread ?? 0)/\(total)" } ?? "–"
      column = grid.put(
        String(repeating: " ", count: max(0, 9 - counts.count)) + counts + "  ", row: row + 1,
        column: column)
      // A long status is cut with a mark: the row shows that more was said.
      grid.put(
        clean(line.status), row: row + 1, column: column,
        line.failed ? dim.with(style(.error)) : style(.date), cutMark: unicode ? "…" : "~")
      if selected { grid.highlight(row: row + 1, style(.selection)) }
    }
  }

  /// The open article's lines, each with its attributes, as drawn: what G and End go to the
  /// end of (``lastArticleScroll(_:)``).
  func articleLines(_ state: BrowseState, id: String) -> (
    heading: String, lines: [(String, TextStyle)]
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
    let heading = article.publisher.map(clean) ?? article.provider
    let width = max(state.width - 4, 10)
    var lines: [(String, TextStyle)] = []
    for line in TextWrapper.wrap(clean(article.title, html: article.textMayHoldHTML), width: width)
    {
      lines.append((line, style(.title)))
    }
    let meta = [
      article.author.map { "by " + clean($0, html: article.textMayHoldHTML) },
      article.publishedAt.map { ArticleRenderer.localTime($0, in: timeZone) },
    ].compactMap { $0 }.joined(separator: " · ")
    if !meta.isEmpty { lines.append((meta, style(.source))) }
    // The feed's categories, as news show gives them.
    if !article.categories.isEmpty {
      let filed = "Filed under " + article.categories.map { clean($0) }.joined(separator: ", ")
      for line in TextWrapper.wrap(filed, width: width) { lines.append((line, style(.source))) }
    }
    if let status { lines.append((status, dim.with(style(.progress)))) }
    lines.append(("", .plain))
    let body = article.readingTexts
      .map {
        TerminalSanitizer.clean(
          article.textMayHoldHTML ? HTMLText.plain($0) : $0, keepNewlines: true)
      }
      .filter { !$0.isEmpty }.joined(separator: "\n\n")
    for line in TextWrapper.wrap(body.isEmpty ? "(no text)" : body, width: width) {
      lines.append((line, line.hasPrefix("> ") ? style(.quote) : .plain))
    }
    lines.append(("", .plain))
    lines.append(("Link:  " + (article.url.map(clean) ?? "none"), style(.link)))
    if let image = article.imageURL { lines.append(("Image: " + clean(image), .plain)) }
    // Its audio and video, as news show lists them: what p plays and d downloads.
    for file in state.media[id] ?? [] {
      let line = "File:  " + clean(EnclosureText.line(file))
      lines.append((line + (state.downloaded.contains(id) ? " (downloaded)" : ""), style(.link)))
    }
    switch state.counts[id] {
    case .pending?:
      lines.append(("Likes and comments: loading…", dim.with(style(.progress))))
    case .loaded(let likes, let comments)?:
      let likesText = likes.map(String.init) ?? "unavailable"
      let commentsText = comments.map(String.init) ?? "unavailable"
      lines.append(
        (
          unicode
            ? "♥ \(likesText) · 💬 \(commentsText)"
            : "likes \(likesText) · comments \(commentsText)", .plain
        ))
    case nil:
      break
    }
    if state.bookmarked.contains(id) {
      lines.append(("Bookmarked", dim.with(style(.bookmarked))))
    }
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
      grid.put(line.0, row: row + 1, column: 2, line.1)
      // `"highlight"` words, coloured where the text has them.
      for (words, wordStyle) in wordHighlights where styled {
        for range in HighlightRule.occurrences(of: words, in: line.0) {
          let start =
            2 + line.0.prefix(range.lowerBound).reduce(0) { $0 + TextWrapper.columns(of: $1) }
          let end =
            2 + line.0.prefix(range.upperBound).reduce(0) { $0 + TextWrapper.columns(of: $1) }
          grid.highlight(row: row + 1, from: start, to: end, wordStyle)
        }
      }
    }
  }

  /// The keys of the screen the help was opened on, as bound now (``KeyTable``).
  private func drawHelp(_ state: BrowseState, on grid: inout ScreenGrid) {
    let rows = state.helpRows
    var detail = "\(state.helpContext.rawValue) · any key to go back"
    if rows.count > state.listRows {
      // More keys than rows: which are shown, and how to see the rest.
      let last = min(state.helpScroll + state.listRows, rows.count)
      detail = "\(state.helpContext.rawValue) · \(state.helpScroll + 1)–\(last) of \(rows.count)"
    }
    drawHeader("Keys", detail: detail, on: &grid)
    // Wide enough for the default keys (`q h Left Esc Backspace`), not for any label at all.
    let keyWidth = min(max(rows.map { $0.keys.count }.max() ?? 0, 8) + 4, 28)
    let mark = unicode ? "…" : "~"
    for (row, entry) in rows.dropFirst(state.helpScroll).prefix(state.listRows).enumerated() {
      let column = grid.put("  " + entry.keys, row: row + 1, column: 0, bold, cutMark: mark)
      grid.put(
        entry.summary, row: row + 1, column: max(column + 2, keyWidth), .plain, cutMark: mark)
    }
  }

  private func drawFooter(_ state: BrowseState, on grid: inout ScreenGrid) {
    let row = grid.height - 1
    if let input = state.filterInput {
      grid.put("/" + input + (unicode ? "▏" : "_"), row: row)
      return
    }
    if let message = state.message ?? Self.stoppedPatterns(state, highlights: highlightBudget) {
      grid.put(clean(message), row: row, style(.warning))
      return
    }
    let keys: String
    switch state.screen {
    case .home: keys = Self.keyLine(Self.footerKeys(.home, keys: state.keys), width: grid.width)
    case .list: keys = Self.keyLine(Self.footerKeys(.list, keys: state.keys), width: grid.width)
    case .article:
      keys = Self.keyLine(Self.footerKeys(.article, keys: state.keys), width: grid.width)
    case .help:
      keys = state.helpOverflow > 0 ? Self.helpScrollKeys(state) : "any key: back"
    }
    grid.put(keys, row: row, style(.footer))
  }

  /// The help's footer when its keys overflow the screen: `j/k scroll  any other key: back`.
  static func helpScrollKeys(_ state: BrowseState) -> String {
    let down = state.keys.keys(for: .named(.down), in: state.helpContext).first ?? "Down"
    let up = state.keys.keys(for: .named(.up), in: state.helpContext).first ?? "Up"
    return "\(down)/\(up) scroll  any other key: back"
  }

  /// What the filter's or the highlights' regular expressions had to stop, for the footer.
  static func stoppedPatterns(_ state: BrowseState, highlights: PatternBudget) -> String? {
    (state.filterBudget.budget.warnings { "the filter's /\($0)/" }
      + highlights.warnings { "the highlight /\($0)/" }).first
  }

  /// The `"highlight"` rules with a query, each with the list's facts (read, bookmarked, tags).
  private func queryHighlights(_ state: BrowseState) -> [RowHighlight] {
    let facts = state.queryFacts
    return highlights.compactMap { rule in
      guard case .query(let query, _) = rule.match else { return nil }
      return RowHighlight(
        matcher: QueryMatcher(query, facts: facts, budget: highlightBudget), style: rule.style)
    }
  }

  /// The `"highlight"` rules with words.
  private var wordHighlights: [([String], TextStyle)] {
    highlights.compactMap { rule in
      guard case .words(let words) = rule.match else { return nil }
      return (words, rule.style)
    }
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

/// A highlight rule's query, ready to match the list's articles.
private struct RowHighlight {
  var matcher: QueryMatcher
  var style: TextStyle
}
