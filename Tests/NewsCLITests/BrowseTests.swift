import FeedParsing
import Foundation
import Testing

@testable import NewsCLI
@testable import NewsCore

@Suite("news browse: keys, state, screen, diff")
struct BrowseTests {
  static let now = Date(timeIntervalSince1970: 1_700_000_000)

  static func article(_ number: Int, url: Bool = true) -> Article {
    Article(
      id: "e.example-\(number)", provider: "blog", title: "Story \(number)",
      description: "Summary of story \(number)", author: "Ann", publisher: "Blog",
      url: url ? "https://e.example/\(number)" : nil,
      publishedAt: now.addingTimeInterval(-3600 * Double(number)))
  }

  /// A list of `count` articles on a `width`×`height` screen.
  static func state(count: Int = 30, width: Int = 60, height: Int = 10) -> BrowseState {
    var state = BrowseState(channels: ["blog", "news"], timeZone: .gmt)
    state.resize(width: width, height: height)
    state.loaded(
      heading: "Source blog", freshness: "fresh", articles: (1...count).map { article($0) },
      read: ["e.example-2"], bookmarked: [])
    return state
  }

  static let renderer = BrowseRenderer(
    styled: false, unicode: true, now: now, timeZone: TimeZone(identifier: "UTC")!)

  static func screen(_ state: BrowseState) -> [String] {
    let grid = renderer.render(state)
    return (0..<grid.height).map { grid.text($0) }
  }

  mutating func press(_ keys: [Key], on state: inout BrowseState) -> [BrowseEffect] {
    keys.flatMap { state.handle($0) }
  }

  @Test(
    "escape sequences are decoded, even split across reads; a lone ESC once input is quiet",
    arguments: [
      ([[0x1B, 0x5B, 0x41]], [Key.up]),
      ([[0x1B], [0x5B], [0x42]], [.down]),
      ([[0x1B, 0x5B, 0x35], [0x7E]], [.pageUp]),
      ([[0x6A, 0x1B, 0x5B, 0x36, 0x7E, 0x6B]], [.character("j"), .pageDown, .character("k")]),
      ([[0x1B, 0x4F, 0x48], [0x0D, 0x7F, 0x09]], [.home, .enter, .backspace, .tab]),
      ([[0xC3], [0xA9]], [.character("é")]),
      ([[0x1B, 0x5B, 0x5A, 0x03, 0x1A]], [.backTab, .interrupt, .suspend]),
      ([[0x1B, 0x1B, 0x5B, 0x43]], [.escape, .right]),
    ] as [([[UInt8]], [Key])])
  func keys(reads: [[UInt8]], expected: [Key]) {
    var decoder = KeyDecoder()
    var keys: [Key] = []
    for read in reads { keys += decoder.feed(read) }
    #expect(keys == expected)
    #expect(!decoder.isWaiting)
    var lone = KeyDecoder()
    #expect(lone.feed([0x1B]).isEmpty)
    #expect(lone.isWaiting)
    #expect(lone.flush() == [.escape])
  }

  @Test("the list: header, numbered rows with marks, the selection, the keys in the footer")
  func list() {
    var state = Self.state()
    let lines = Self.screen(state)
    #expect(lines[0].hasPrefix("Source blog  30 articles · 29 unread · fresh"))
    #expect(lines[1].hasPrefix(">•   1. Story 1  Blog · 1h ago"))
    #expect(lines[2].hasPrefix("     2. Story 2"))
    #expect(lines[9].hasPrefix("j/k move  Enter read"))
    #expect(lines.allSatisfy { $0.count == 60 })
    _ = state.handle(.down)
    _ = state.handle(.character("j"))
    #expect(Self.screen(state)[3].hasPrefix(">•   3. Story 3"))
    // Moving past the last visible row scrolls.
    _ = state.handle(.pageDown)
    #expect(state.selection == 10)
    #expect(Self.screen(state)[8].hasPrefix(">•  11. Story 11"))
    _ = state.handle(.character("G"))
    #expect(Self.screen(state)[8].hasPrefix(">•  30. Story 30"))
    _ = state.handle(.character("g"))
    #expect(state.selection == 0 && state.scroll == 0)
  }

  @Test(
    "the article scrolls with the list's keys, never above its top",
    arguments: [
      ([Key.character("j"), .down], 2), ([.character("j"), .character("k"), .up], 0),
      ([.pageDown, .character(" ")], 16), ([.pageDown, .pageUp], 0),
      ([.character("j"), .character("G"), .character("g")], 0), ([.home, .character("k")], 0),
    ])
  func articleScroll(keys: [Key], line: Int) {
    var state = Self.state()
    _ = state.handle(.enter)
    for key in keys { #expect(state.handle(key).isEmpty) }
    #expect(state.articleScroll == line)
  }

  @Test("Enter opens the article, marks it read and asks for its counts; Esc goes back")
  func article() {
    var state = Self.state()
    _ = state.handle(.down)
    let effects = state.handle(.enter)
    let second = Self.article(2)
    #expect(effects == [.loadCounts(second), .markRead(second.id), .displayed])
    var lines = Self.screen(state)
    #expect(lines[1].hasPrefix("  Story 2"))
    #expect(lines.contains { $0.hasPrefix("  by Ann · ") })
    #expect(!lines.contains { $0.contains("Filed under") }, "no categories, no line")
    #expect(lines.contains { $0.hasPrefix("  Summary of story 2") })
    #expect(lines.contains { $0.hasPrefix("  Link:  https://e.example/2") })
    #expect(lines.contains { $0.hasPrefix("  Likes and comments: loading…") })
    state.counts[second.id] = .loaded(likes: 14, comments: nil)
    lines = Self.screen(state)
    #expect(lines.contains { $0.hasPrefix("  ♥ 14 · 💬 unavailable") })
    #expect(state.handle(.escape) == [.displayed])
    #expect(state.screen == .list)
    // Opened once, counts are not asked again.
    #expect(!state.handle(.enter).contains(.loadCounts(second)))
  }

  @Test("a header too wide for the screen ends in a mark, not mid-word")
  func narrowHeader() {
    let state = Self.state(width: 30)
    let header = Self.screen(state)[0]
    #expect(header.hasPrefix("Source blog  30 articles"), "\(header)")
    #expect(header.hasSuffix("…"), "\(header)")
    #expect(header.count == 30, "\(header)")
  }

  @Test("the article's categories are under its byline, as news show gives them")
  func categories() throws {
    var state = Self.state()
    var filed = Self.article(1)
    filed.categories = ["Science", "Climate & Weather"]
    state.loaded(
      heading: "Source blog", freshness: "fresh", articles: [filed], read: [], bookmarked: [])
    _ = state.handle(.enter)
    let lines = Self.screen(state)
    let byline = try #require(lines.firstIndex { $0.hasPrefix("  by Ann · ") })
    #expect(lines[byline + 1].hasPrefix("  Filed under Science, Climate & Weather"))
  }

  @Test("f: the full text fetched in the background, then toggled; ≡ marks those kept")
  func fullText() {
    var state = Self.state()
    _ = state.handle(.enter)
    let first = Self.article(1)
    #expect(state.handle(.character("f")) == [.fetchFullText(first)])
    #expect(state.fullTexts[first.id] == .fetching)
    #expect(Self.screen(state).contains { $0.hasPrefix("  Full text: fetching…") })
    // A second f while it is fetched asks nothing more.
    #expect(state.handle(.character("f")).isEmpty)
    var full = first
    full.content = "The whole story, paragraph by paragraph."
    full.description = nil
    state.fullTexts[first.id] = .had(full, shown: true)
    var lines = Self.screen(state)
    #expect(lines.contains { $0.hasPrefix("  Full text") })
    #expect(lines.contains { $0.hasPrefix("  The whole story, paragraph by paragraph.") })
    #expect(!lines.contains { $0.hasPrefix("  Summary of story 1") })
    #expect(state.handle(.character("f")).isEmpty)
    lines = Self.screen(state)
    #expect(lines.contains { $0.hasPrefix("  Summary of story 1") })
    #expect(!lines.contains { $0.hasPrefix("  The whole story") })
    // Kept ones are marked in the list, and open with their full text.
    _ = state.handle(.escape)
    state.withFullText = ["e.example-3"]
    #expect(Self.screen(state)[3].hasPrefix(" • ≡ 3. Story 3"))
    state.media = ["e.example-3": [Enclosure(url: "https://e.example/3.mp3", type: "audio/mpeg")]]
    #expect(Self.screen(state)[3].hasPrefix(" • ≡ 3. Story 3 ♪"))
    state.downloaded = ["e.example-3"]
    #expect(Self.screen(state)[3].hasPrefix(" • ≡ 3. Story 3 ♪↓"))
    _ = state.handle(.down)
    _ = state.handle(.down)
    #expect(state.handle(.enter).contains(.fetchFullText(Self.article(3))))
    // Its file is listed as news show lists it, and said downloaded.
    #expect(
      Self.screen(state).contains {
        $0.hasPrefix("  File:  [audio/mpeg] https://e.example/3.mp3 (downloaded)")
      },
      "\(Self.screen(state))")
    // p plays what carries audio or video, and says so of what does not.
    #expect(state.handle(.character("p")) == [.play(Self.article(3))])
    // d downloads it in the background, saying so.
    #expect(state.handle(.character("d")) == [.download(Self.article(3))])
    #expect(state.message == "downloading in the background…")
    _ = state.handle(.escape)
    _ = state.handle(.up)
    _ = state.handle(.enter)
    #expect(state.handle(.character("p")).isEmpty)
    #expect(state.message == "this article carries no audio or video")
    state.message = nil
    #expect(state.handle(.character("d")).isEmpty)
    #expect(state.message == "this article carries no audio or video")
    // A source showing full text by default fetches it for every article opened.
    state = Self.state()
    state.showsFullText = true
    #expect(state.handle(.enter).contains(.fetchFullText(first)))
  }

  @Test("o, b, r, Tab, ?, q: effects for the session")
  func effects() {
    var state = Self.state()
    #expect(state.handle(.character("o")) == [.openLink(Self.article(1), nil)])
    #expect(state.read.contains(Self.article(1).id))
    #expect(state.handle(.character("b")) == [.setBookmark(Self.article(1), true)])
    #expect(Self.screen(state)[1].hasPrefix("> *  1."))
    #expect(state.handle(.character("b")) == [.setBookmark(Self.article(1), false)])
    #expect(state.handle(.character("r")) == [.load(channel: 0, refresh: true)])
    #expect(Self.screen(state)[0].contains("loading…"))
    #expect(state.handle(.character("r")).isEmpty, "one reload at a time")
    state.loaded(
      heading: "Source blog", freshness: "fresh", articles: state.articles, read: [], bookmarked: []
    )
    #expect(state.handle(.tab) == [.load(channel: 1, refresh: false), .displayed])
    state.failed("source news: HTTP 500")
    #expect(Self.screen(state)[9].hasPrefix("source news: HTTP 500"))
    #expect(state.handle(.character("?")) == [.displayed])
    #expect(Self.screen(state)[0].hasPrefix("Keys"))
    #expect(state.handle(.character("q")).isEmpty, "q on the keys goes back")
    // q on a list goes back to the home screen, q there quits.
    #expect(state.handle(.character("q")) == [.displayed])
    #expect(state.screen == .home)
    #expect(state.handle(.character("q")) == [.quit])
    var noLink = BrowseState(channels: ["x"], timeZone: .gmt)
    noLink.loaded(
      heading: "x", freshness: "", articles: [Self.article(1, url: false)], read: [], bookmarked: []
    )
    #expect(noLink.handle(.character("o")).isEmpty)
    #expect(Self.screen(noLink)[23].hasPrefix("this article has no link"))
  }

  @Test("/ filters by words as search does; Esc shows every article again")
  func filter() {
    var state = Self.state()
    _ = state.handle(.character("/"))
    for character in "STÖRY 30x" { _ = state.handle(.character(character)) }
    _ = state.handle(.backspace)
    #expect(Self.screen(state)[9].hasPrefix("/STÖRY 30▏"))
    _ = state.handle(.enter)
    #expect(state.visible.map(\.title) == ["Story 30"])
    #expect(Self.screen(state)[0].contains("1 article · 29 unread · \"STÖRY 30\""))
    _ = state.handle(.escape)
    #expect(state.visible.count == 30)
  }

  @Test("/ takes the query language: states, time, OR; a query that cannot be read says where")
  func queryFilter() {
    var state = Self.state()
    state.now = Self.now
    func filter(_ text: String) {
      _ = state.handle(.character("/"))
      for character in text { _ = state.handle(.character(character)) }
      _ = state.handle(.enter)
    }
    filter("is:read OR \"story 30\"")
    #expect(state.visible.map(\.title) == ["Story 2", "Story 30"])
    _ = state.handle(.escape)
    // Published an hour apart: within 3h are stories 1 and 2.
    filter("age<150m -is:read")
    #expect(state.visible.map(\.title) == ["Story 1"])
    _ = state.handle(.escape)
    filter("autor:ann")
    #expect(state.filterInput == "autor:ann", "left open to be mended")
    #expect(state.message?.contains("unknown field 'autor' (did you mean 'author'?)") == true)
    #expect(state.message?.hasSuffix("at column 1") == true)
  }

  @Test("/ looks in the list's kept full texts too, as news search does (#47.6)")
  func filterInFullTexts() {
    var state = Self.state()
    let id = state.articles[4].id
    state.withFullText = [id]
    _ = state.handle(.character("/"))
    for character in "zeppelin" { _ = state.handle(.character(character)) }
    let effects = state.handle(.enter)
    #expect(effects.contains(.loadKeptTexts([id])))
    #expect(state.visible.isEmpty)
    var kept = state.articles[4]
    kept.content = "The whole story, with a zeppelin in it."
    state.keptTexts = [id: kept]
    #expect(state.visible.map(\.id) == [id])
  }

  @Test("G and End go to an article's end, g and Home to its start; ? names h l ← →")
  func articleEnds() {
    var state = Self.state(width: 40, height: 6)
    _ = state.handle(.enter)
    let last = Self.renderer.lastArticleScroll(state)
    #expect((last ?? 0) > 0)
    _ = state.handle(.character("G"))
    state.clampArticleScroll(last: last)
    #expect(state.articleScroll == last)
    _ = state.handle(.character("k"))
    #expect(state.articleScroll == (last ?? 0) - 1)
    _ = state.handle(.end)
    state.clampArticleScroll(last: last)
    #expect(state.articleScroll == last)
    _ = state.handle(.home)
    #expect(state.articleScroll == 0)
    var help = Self.state(height: 40)
    _ = help.handle(.character("?"))
    let screen = Self.screen(help).joined(separator: "\n")
    #expect(screen.contains("Enter l Right") && screen.contains("q h Left"), "\(screen)")
    // The default keys' summaries start in one column, the longest label's included (an
    // article's `q h Left Esc Backspace`).
    var reading = Self.state(height: 40)
    _ = reading.handle(.enter)
    _ = reading.handle(.character("?"))
    let keys = Self.screen(reading).joined(separator: "\n")
    #expect(keys.contains("q h Left Esc Backspace"), "\(keys)")
    let columns = Set(
      Self.screen(reading).dropFirst().prefix { !$0.hasPrefix("any key") }.compactMap { line in
        line.range(of: #"\S  +\S"#, options: .regularExpression).map {
          line.distance(from: line.startIndex, to: $0.upperBound)
        }
      })
    #expect(columns.count == 1, "\(keys)")
  }

  @Test("keys more than the screen holds scroll with the movement keys; any other key goes back")
  func helpScrolls() throws {
    var state = Self.state(width: 60, height: 10)
    _ = state.handle(.character("?"))
    let total = state.helpRows.count
    #expect(total > state.listRows)
    var screen = Self.screen(state)
    #expect(screen[0].hasPrefix("Keys  list · 1–8 of \(total)"), "\(screen[0])")
    #expect(screen.last?.hasPrefix("j/k scroll  any other key: back") == true)
    #expect(state.handle(.character("j")).isEmpty)
    #expect(state.screen == .help && state.helpScroll == 1)
    // A page at most to the last row, which is then on screen.
    for key in [Key.pageDown, .pageDown, .pageDown] { #expect(state.handle(key).isEmpty) }
    screen = Self.screen(state)
    #expect(state.helpScroll == total - state.listRows)
    #expect(screen[state.listRows].contains("quit at once"), "\(screen)")
    // A summary too wide for the screen ends in a mark.
    #expect(screen.contains { $0.hasSuffix("…") }, "\(screen)")
    #expect(state.handle(.character("k")).isEmpty && state.helpScroll == total - state.listRows - 1)
    #expect(state.handle(.character("x")).isEmpty)
    #expect(state.screen == .list)
    // Opened again, from its top; a screen tall enough has nothing to scroll.
    _ = state.handle(.character("?"))
    #expect(state.helpScroll == 0)
    var tall = Self.state(height: 40)
    _ = tall.handle(.character("?"))
    #expect(Self.screen(tall)[0].hasPrefix("Keys  list · any key to go back"))
    #expect(tall.handle(.character("j")).isEmpty)
    #expect(tall.screen == .list, "nothing to scroll: j goes back")
  }

  @Test(
    "a row too wide: the title ends in a mark, the source and the age are drawn whole or not",
    arguments: [
      (60, "2. Story 2  Blog · 2h ago"), (26, "2. Story 2  Blog"), (20, "2. Story 2"),
      (12, "2. Sto…"),
    ])
  func rowCut(width: Int, row: String) {
    let state = Self.state(width: width, height: 10)
    #expect(Self.screen(state)[2].trimmingCharacters(in: .whitespaces) == row)
  }

  @Test("a resize keeps the selection on screen; wide text is cut at the edge")
  func resize() {
    var state = Self.state(width: 100, height: 30)
    _ = state.handle(.character("G"))
    state.resize(width: 20, height: 5)
    #expect(state.selection == 29)
    let lines = Self.screen(state)
    #expect(lines.count == 5 && lines.allSatisfy { $0.count <= 20 })
    #expect(lines[3].hasPrefix(">•  30. Story 3"))
    var grid = ScreenGrid(width: 5, height: 1)
    grid.put("日本語", row: 0)
    #expect(grid.text(0) == "日本 ")
  }

  @Test("the diff writes only the rows that changed, the whole screen after a resize")
  func diff() {
    var state = Self.state()
    let first = Self.renderer.render(state)
    let full = ScreenDiff.ansi(from: nil, to: first, styled: true)
    #expect(full.hasPrefix("\u{1B}[H\u{1B}[2J"))
    #expect(full.components(separatedBy: ";1H").count - 1 == 10)
    _ = state.handle(.down)
    let second = Self.renderer.render(state)
    let change = ScreenDiff.ansi(from: first, to: second, styled: false)
    #expect(change.components(separatedBy: ";1H").count - 1 == 2)
    #expect(change.hasPrefix("\u{1B}[2;1H"))
    #expect(ScreenDiff.ansi(from: second, to: second, styled: true).isEmpty)
    let styled = BrowseRenderer(styled: true, unicode: false, now: Self.now, timeZone: .gmt)
    #expect(
      ScreenDiff.ansi(from: nil, to: styled.render(state), styled: true).contains("\u{1B}[1;7m"))
  }

  @Test("home: rows with counts and state; Enter opens a list, r and R reload, q quits")
  func home() {
    var state = BrowseState(channels: ["articles", "hn", "lwn"], timeZone: .gmt)
    state.home = [
      .init(unread: 3, total: 10, status: "stored 5 min ago"),
      .init(status: "never fetched"), .init(unread: 0, total: 4, status: "cached, 1 h ago"),
    ]
    state.screen = .home
    state.resize(width: 60, height: 8)
    let screen = Self.screen(state)
    #expect(screen[0].hasPrefix("news  3 lists · 3 unread"))
    #expect(screen[1].hasPrefix(">  articles       3/10  stored 5 min ago"))
    #expect(screen[2].hasPrefix("   hn                –  never fetched"))
    #expect(screen[3].hasPrefix("   lwn             0/4  cached, 1 h ago"))
    #expect(state.handle(.character("j")).isEmpty)
    #expect(state.handle(.character("r")) == [.refresh(channels: [1])])
    #expect(Self.screen(state)[2].hasPrefix(">⟳ hn"), "a progress mark on the row")
    // R reloads the rows not loading yet.
    #expect(state.handle(.character("R")) == [.refresh(channels: [0, 2])])
    #expect(state.handle(.character("R")).isEmpty)
    #expect(Self.screen(state)[0].contains("loading 3…"))
    state.updateRow(2, unread: nil, total: nil, status: "failed: HTTP 500", failed: true)
    #expect(Self.screen(state)[3].hasPrefix(" ! lwn"))
    #expect(Self.screen(state)[3].contains("0/4  failed: HTTP 500"))
    // A failure's message names its source; the row does already, so the reason comes first.
    _ = state.apply(.failed(channel: 2, "source lwn: answered HTTP 503"))
    #expect(
      Self.screen(state)[3].contains("0/4  failed: answered HTTP 503"), "\(Self.screen(state))")
    _ = state.apply(.failed(channel: 2, "source lwn answered HTTP 404"))
    #expect(Self.screen(state)[3].contains("0/4  failed: answered HTTP 404"))
    _ = state.apply(.failed(channel: 2, "source other: answered HTTP 503"))
    #expect(Self.screen(state)[3].contains("failed: source other: answered"))
    // One longer than the row is cut with a mark in the last column.
    _ = state.apply(
      .failed(channel: 2, "source lwn: cannot reach lwn.example: host not found, again and again"))
    let cut = Self.screen(state)[3]
    #expect(cut.hasSuffix("failed: cannot reach lwn.example: h…"), "\(cut)")
    #expect(TextWrapper.columns(cut[...]) == 60)
    // Enter opens the list at once; q goes back home with the row's counts as read here.
    #expect(state.handle(.enter) == [.load(channel: 1, refresh: false), .displayed])
    #expect(state.screen == .list)
    #expect(state.loading)
    state.loaded(
      heading: "Source hn", freshness: "fresh", articles: [Self.article(1), Self.article(2)],
      read: [Self.article(1).id], bookmarked: [])
    #expect(state.handle(.escape) == [.displayed])
    #expect(state.screen == .home)
    #expect(state.home[1].unread == 1 && state.home[1].total == 2)
    #expect(state.handle(.character("?")) == [.displayed])
    #expect(state.handle(.character("x")).isEmpty)
    #expect(state.screen == .home)
    #expect(state.handle(.character("q")) == [.quit])
  }

  /// The ids `n` opened, from the effects of each press.
  static func opened(_ effects: [BrowseEffect]) -> [String] {
    effects.compactMap { if case .markRead(let id) = $0 { id } else { nil } }
  }

  @Test("n walks every unread article of every list exactly once, then says none is left")
  func nextUnreadAcrossLists() {
    let a = [Self.article(1), Self.article(2), Self.article(3)]
    let c = [Self.article(7), Self.article(8)]
    var state = BrowseState(channels: ["a", "b", "c"], timeZone: .gmt)
    state.resize(width: 60, height: 10)
    state.home = [
      .init(unread: 2, total: 3, status: "fresh"), .init(unread: 0, total: 4, status: "fresh"),
      .init(unread: 1, total: 2, status: "fresh"),
    ]
    state.screen = .home
    // From the home screen, n opens the first list with unread articles.
    #expect(state.handle(.character("n")) == [.load(channel: 0, refresh: false), .displayed])
    var walked = Self.opened(
      state.loaded(heading: "a", freshness: "fresh", articles: a, read: [a[1].id], bookmarked: []))
    walked += Self.opened(state.handle(.character("n")))
    // Past the last unread of a (b has none): c is opened, then its unread article.
    #expect(state.handle(.character("n")) == [.load(channel: 2, refresh: false), .displayed])
    walked += Self.opened(
      state.loaded(heading: "c", freshness: "fresh", articles: c, read: [c[1].id], bookmarked: []))
    #expect(walked == [a[0].id, a[2].id, c[0].id])
    #expect(state.handle(.character("n")).isEmpty)
    #expect(state.message == "no unread articles left")
    #expect(state.home.map(\.unread) == [0, 0, 0])
  }

  @Test("n and R pass by the lists gathering the others' items (All unread, Bookmarks)")
  func gatherers() {
    var state = BrowseState(channels: ["All unread", "a", "Bookmarks"], timeZone: .gmt)
    state.resize(width: 60, height: 10)
    state.home = [
      .init(unread: 2, total: 2, status: "stored"), .init(unread: 2, total: 3, status: "fresh"),
      .init(unread: 1, total: 1, status: "stored"),
    ]
    state.gatherers = [0, 2]
    state.screen = .home
    // n opens a: All unread holds a's items, which are walked once, in their own list.
    #expect(state.handle(.character("n")) == [.load(channel: 1, refresh: false), .displayed])
    state.screen = .home
    #expect(state.handle(.character("R")) == [.refresh(channels: [1])])
    // Enter still opens a gathering list, from the store.
    state.homeSelection = 0
    state.home[1].loading = false
    #expect(state.handle(.enter) == [.load(channel: 0, refresh: false), .displayed])
  }

  @Test("R fetches the hidden sources too; the saved searches answer after them, once")
  func reloadWithHidden() {
    var state = BrowseState(
      channels: ["All unread", "a", "storms", "#kept", "Bookmarks"], timeZone: .gmt)
    state.resize(width: 60, height: 10)
    state.home = Array(repeating: .init(unread: 0, total: 0, status: "stored"), count: 5)
    state.gatherers = [0, 3, 4]
    state.searches = [2]
    state.hasHidden = true
    state.screen = .home
    #expect(
      state.handle(.character("R")) == [.refresh(channels: [1]), .reloadHidden(then: [2])])
    #expect(state.home[2].loading, "the search's row shows it waits")
    // A second R while they load starts nothing more.
    #expect(state.handle(.character("R")).isEmpty)
    // a answers first: the search still loads, so nothing is counted yet.
    let answer = ChannelContents(
      heading: .source("a"), freshness: .fresh, articles: [], read: [], bookmarked: [],
      unread: 1, total: 1, warnings: [])
    #expect(state.apply(.loaded(channel: 1, answer, final: true)).isEmpty)
    // The hidden sources answered, one failing: said, and the search asked now.
    #expect(
      state.apply(.hiddenReloaded(failures: ["source quiet: HTTP 500"], then: [2]))
        == [.refresh(channels: [2])])
    #expect(state.message == "source quiet: HTTP 500")
    #expect(state.apply(.loaded(channel: 2, answer, final: true)) == [.loadHome])
    // Without a search to ask, the hidden sources' answer counts the tags again itself.
    state.searches = []
    #expect(
      state.handle(.character("R")) == [.refresh(channels: [1, 2]), .reloadHidden(then: [])])
    _ = state.apply(.loaded(channel: 1, answer, final: true))
    _ = state.apply(.loaded(channel: 2, answer, final: true))
    #expect(
      state.apply(.hiddenReloaded(failures: ["x", "y", "z"], then: [])) == [.loadHome])
    #expect(state.message == "x (and 2 more)")
  }

  @Test("the header counts each unread item once: All unread's count, a tag's list's with t")
  func headerUnread() {
    // a and a saved search over it list the same item; b's item is in a's list too.
    var state = BrowseState(
      channels: ["All unread", "a", "b", "search", "#t", "Bookmarks"], timeZone: .gmt)
    state.resize(width: 60, height: 10)
    state.home = [
      .init(status: "…"), .init(unread: 2, total: 2, status: "fresh"),
      .init(unread: 1, total: 1, status: "fresh"), .init(unread: 1, total: 1, status: "fresh"),
      .init(status: "…"), .init(unread: 0, total: 0, status: "stored"),
    ]
    state.gatherers = [0, 4, 5]
    state.allUnreadRow = 0
    state.channelTags = [[], ["t"], [], ["t"], ["t"], []]
    state.screen = .home
    // Before All unread is counted: the rows' sum, the gathering ones left out.
    #expect(state.homeUnread == 4)
    state.home[0] = .init(unread: 2, total: 2, status: "stored")
    state.home[4] = .init(unread: 2, total: 2, status: "stored")
    #expect(Self.screen(state)[0].contains("6 lists · 2 unread"))
    _ = state.handle(.character("t"))
    #expect(state.homeTag == "t")
    state.home[4] = .init(unread: 1, total: 2, status: "stored")
    #expect(Self.screen(state)[0].contains("3 lists · 1 unread · tag t"))
  }

  @Test("the last answer of R counts All unread again, a failure as well as a list")
  func recountAfterReload() {
    for lastFails in [false, true] {
      var state = BrowseState(channels: ["All unread", "a", "b", "Bookmarks"], timeZone: .gmt)
      state.resize(width: 60, height: 10)
      state.home = Array(repeating: .init(unread: 0, total: 0, status: "stored"), count: 4)
      state.gatherers = [0, 3]
      state.screen = .home
      #expect(state.handle(.character("R")) == [.refresh(channels: [1, 2])])
      let answer = ChannelContents(
        heading: .source("a"), freshness: .fresh, articles: [], read: [], bookmarked: [],
        unread: 2, total: 2, warnings: [])
      // One answered, one still loading: nothing to count yet.
      #expect(state.apply(.loaded(channel: 1, answer, final: true)).isEmpty)
      let last =
        lastFails
        ? state.apply(.failed(channel: 2, "source b: cannot reach b.example"))
        : state.apply(.loaded(channel: 2, answer, final: true))
      #expect(last == [BrowseEffect.loadHome], "last fails: \(lastFails)")
      // A gathering list's own answer does not start another count.
      #expect(state.apply(.loaded(channel: 0, answer, final: true)).isEmpty)
    }
  }

  @Test("a sync made by opening one of an account's feeds counts its other feeds' rows again")
  func accountSiblingsRecounted() {
    var state = BrowseState(
      channels: ["All unread", "home/news", "home/blog", "homely", "Bookmarks"], timeZone: .gmt)
    state.resize(width: 60, height: 10)
    state.home = Array(repeating: .init(status: "never fetched", filled: true), count: 5)
    state.gatherers = [0, 4]
    var answer = ChannelContents(
      heading: .source("home/news"), freshness: .synced(nil), articles: [], read: [],
      bookmarked: [], unread: 1, total: 1, warnings: [])
    answer.syncedAccount = "home"
    #expect(state.apply(.loaded(channel: 1, answer, final: true)) == [BrowseEffect.loadHome])
    // The blog's row takes the store's count; a source merely named alike keeps its own.
    _ = state.apply(.row(channel: 2, ChannelRow(unread: 2, total: 3, status: .synced(nil))))
    _ = state.apply(.row(channel: 3, ChannelRow(unread: 9, total: 9, status: .stored)))
    #expect(state.home[2].total == 3)
    #expect(state.home[3].total == nil)
  }

  @Test("s saves the filter's words as a saved search; without a filter it says how")
  func saveSearch() {
    var state = Self.state()
    #expect(state.handle(.character("s")).isEmpty)
    #expect(state.message == "/ and words first: s then saves them as a list")
    state.filter = ["climate", "policy"]
    #expect(state.handle(.character("s")) == [.saveSearch(["climate", "policy"])])
  }

  @Test("N walks backwards in the list")
  func previousUnread() {
    var state = Self.state(count: 5)
    state.selection = 4
    #expect(Self.opened(state.handle(.character("N"))) == ["e.example-5"])
    #expect(Self.opened(state.handle(.character("N"))) == ["e.example-4"])
    #expect(Self.opened(state.handle(.character("N"))) == ["e.example-3"])
    // e.example-2 was read already.
    #expect(Self.opened(state.handle(.character("N"))) == ["e.example-1"])
  }

  @Test("A marks the list read, u right after undoes it: read state unchanged")
  func markAllAndUndo() {
    var state = Self.state(count: 4)
    let before = state.read
    let ids = ["e.example-1", "e.example-3", "e.example-4"]
    #expect(state.handle(.character("A")) == [.setRead(ids, true)])
    #expect(state.read == before.union(ids))
    #expect(Self.screen(state)[9].hasPrefix("marked 3 read (u undoes)"))
    #expect(state.handle(.character("u")) == [.setRead(ids, false)])
    #expect(state.read == before)
    // Only right after: a second u, or u after another key, does nothing.
    #expect(state.handle(.character("u")).isEmpty)
    _ = state.handle(.character("A"))
    _ = state.handle(.character("j"))
    #expect(state.handle(.character("u")).isEmpty)
    #expect(state.handle(.character("A")).isEmpty)
    #expect(state.message == "every article here is read")
  }

  @Test("on an article, 2o opens link 2 of its text; on the list digits are a count (3j)")
  func numberedLink() {
    var state = Self.state(count: 5)
    #expect(state.handle(.character("3")).isEmpty)
    #expect(state.count == 3)
    #expect(state.handle(.character("j")).isEmpty)
    #expect(state.selection == 3 && state.count == nil)
    _ = state.handle(.character("g"))
    _ = state.handle(.enter)
    #expect(state.handle(.character("1")).isEmpty)
    #expect(state.handle(.character("2")).isEmpty)
    #expect(Self.screen(state)[9].hasPrefix("12o opens link 12 of the text"))
    #expect(state.handle(.character("o")) == [.openLink(Self.article(1), 12)])
    #expect(state.handle(.character("o")) == [.openLink(Self.article(1), nil)])
    _ = state.handle(.character("3"))
    _ = state.handle(.character("j"))
    #expect(state.handle(.character("o")) == [.openLink(Self.article(1), nil)])
  }

  @Test("t shows only the lists of the next tag, then every list again; Enter opens the right one")
  func tagFilter() {
    var state = BrowseState(channels: ["articles", "hn", "lwn", "blog"], timeZone: .gmt)
    state.home = (0..<4).map { _ in .init(unread: 1, total: 1, status: "fresh") }
    state.channelTags = [[], ["tech"], ["linux", "tech"], ["linux"]]
    state.screen = .home
    state.resize(width: 60, height: 8)
    _ = state.handle(.character("t"))
    #expect(state.homeTag == "linux")
    #expect(state.homeRows == [2, 3])
    #expect(Self.screen(state)[0].hasPrefix("news  2 lists · 2 unread · tag linux"))
    #expect(Self.screen(state)[1].hasPrefix(">  lwn"))
    _ = state.handle(.character("j"))
    #expect(state.handle(.enter) == [.load(channel: 3, refresh: false), .displayed])
    _ = state.handle(.character("q"))
    _ = state.handle(.character("t"))
    #expect(state.homeRows == [1, 2])
    _ = state.handle(.character("t"))
    #expect(state.homeTag == nil)
    #expect(state.homeRows == [0, 1, 2, 3])
    var untagged = BrowseState(channels: ["x"], timeZone: .gmt)
    untagged.home = [.init()]
    untagged.screen = .home
    #expect(untagged.handle(.character("t")).isEmpty)
    #expect(untagged.message?.hasPrefix("no list has tags") == true)
  }

  @Test("the home header counts each unread item once: All unread and tags are not added on top")
  func homeHeaderCounts() {
    var state = BrowseState(
      channels: ["All unread", "blog", "news", "#tech", "Bookmarks"], timeZone: .gmt)
    state.resize(width: 80, height: 10)
    state.gatherers = [0, 3, 4]
    state.screen = .home
    state.home = [
      .init(unread: 10, total: 10, status: "stored"), .init(unread: 6, total: 9, status: "fresh"),
      .init(unread: 4, total: 5, status: "fresh"), .init(unread: 6, total: 9, status: "stored"),
      .init(unread: 1, total: 2, status: "stored"),
    ]
    #expect(Self.screen(state)[0].contains("5 lists · 10 unread"), "\(Self.screen(state)[0])")
  }

  @Test(
    "every screen's key line fits the width and always keeps '? keys' and quitting",
    arguments: [40, 60, 80, 120])
  func keyLines(width: Int) {
    for (keys, last) in [
      (BrowseRenderer.footerKeys(.home, keys: KeyMap()), "q quit"),
      (BrowseRenderer.footerKeys(.list, keys: KeyMap()), "q back"),
      (BrowseRenderer.footerKeys(.article, keys: KeyMap()), "q back"),
    ] {
      let line = BrowseRenderer.keyLine(keys, width: width)
      #expect(line.count <= max(width, 15), "\(line)")
      #expect(line.hasSuffix("? keys  " + last), "\(line)")
    }
    #expect(
      BrowseRenderer.keyLine(BrowseRenderer.footerKeys(.home, keys: KeyMap()), width: 120)
        == "j/k move  Enter open  n unread  r reload  R all  t tag  ? keys  q quit")
  }

  @Test("the article screen shows its keys at 60 columns")
  func articleKeyLine() {
    var state = Self.state(width: 60, height: 12)
    _ = state.handle(.enter)
    state.message = nil
    let footer = Self.screen(state).last ?? ""
    #expect(footer.contains("q back") && footer.contains("? keys"), "\(footer)")
  }

  @Test("events are values the state handles: a row filled once, a full text clearing its own line")
  func events() {
    var state = BrowseState(channels: ["a", "b"], timeZone: .gmt)
    state.home = [BrowseState.HomeRow(status: "…"), BrowseState.HomeRow(status: "…")]
    // The store's row fills an empty one; a second one does not overwrite it.
    _ = state.apply(.row(channel: 0, ChannelRow(unread: 3, total: 5, status: .fresh)))
    #expect(state.home[0].unread == 3 && state.home[0].filled)
    _ = state.apply(.row(channel: 0, ChannelRow(unread: 9, total: 9, status: .stored)))
    #expect(state.home[0].unread == 3)
    #expect(!state.home[1].filled)
    // A full text clears the footer only while it still says the full text is coming.
    var list = Self.state()
    _ = list.handle(.enter)
    let effects = list.toggleFullText()
    #expect(list.messageIsFullTextFetch && !effects.isEmpty)
    let id = list.current?.id ?? ""
    _ = list.apply(.fullText(id: id, Self.article(1), problem: nil))
    #expect(list.message == nil)
    list.fullTexts[id] = nil
    _ = list.toggleFullText()
    list.message = "something else"
    _ = list.apply(.fullText(id: id, Self.article(1), problem: nil))
    #expect(list.message == "something else")
  }
}
