import Foundation
import Testing

@testable import FeedParsing
@testable import NewsCore

/// Pages without a feed read by selectors: links resolved against the page and its `<base>`,
/// entities decoded once, four forms of date, items without one, and what matched nothing.
@Suite("pages read by selectors")
struct PageSelectorsTests {
  static let page = Data(
    #"""
    <html><head><title>Acme &amp; Co</title><base href="https://acme.example/blog/"></head>
    <body><nav><a href="/">Home</a></nav>
    <article><h2><a href="post-1.html">Fish &amp;amp; chips</a></h2>
      <time datetime="2026-11-01T10:00:00Z">1 Nov</time>
      <p class="summary">Hello <b>world</b>, <a href="x.html">more</a></p></article>
    <article><h2><a href="/post-2.html">Second</a></h2>
      <time datetime="Sun, 02 Nov 2026 10:00:00 GMT">2 Nov</time></article>
    <article><h2><a href="https://other.example/3">Third</a></h2>
      <time datetime="1762300000">3 Nov</time></article>
    <article><h2><a href="post-4.html">Fourth</a></h2><time>sometime</time></article>
    <article><p>no heading, no link</p></article>
    </body></html>
    """#.utf8)

  static func selectors(
    items: String = "article", title: String? = "h2", link: String? = nil,
    date: String? = "time@datetime", content: String? = ".summary", format: String? = nil
  ) throws -> PageSelectors {
    PageSelectors(
      items: try .init(items), title: try title.map(PageSelectors.Field.init),
      link: try link.map(PageSelectors.Field.init), date: try date.map(PageSelectors.Field.init),
      content: try content.map(PageSelectors.Field.init), dateFormat: format)
  }

  @Test("links resolve against <base>, entities are decoded once, the page's title is read")
  func readsItems() throws {
    let origin = FeedOrigin(url: URL(string: "http://127.0.0.1/news.html"))
    let (title, entries) = try Self.selectors().read(Self.page, origin: origin)
    #expect(title == "Acme & Co")
    #expect(entries.map(\.title) == ["Fish &amp; chips", "Second", "Third", "Fourth"])
    #expect(
      entries.map(\.link) == [
        "https://acme.example/blog/post-1.html", "https://acme.example/post-2.html",
        "https://other.example/3", "https://acme.example/blog/post-4.html",
      ])
    #expect(entries[0].summary == "Hello world, more")
    #expect(entries[0].content?.contains("https://acme.example/blog/x.html") == true)
    #expect(entries[3].date == nil)
    #expect(entries[3].unreadDate == nil, "no datetime attribute: no date at all")
  }

  @Test(
    "dates: RFC 3339, RFC 822, seconds since 1970, or the pattern given",
    arguments: [
      ("2026-11-01T10:00:00Z", nil, 1_793_527_200.0),
      ("Sun, 02 Nov 2026 10:00:00 GMT", nil, 1_793_613_600),
      ("1762300000", nil, 1_762_300_000),
      ("04.11.2026 09:30", "dd.MM.yyyy HH:mm", 1_793_784_600),
      ("04.11.2026 09:30", nil, nil),
    ] as [(String, String?, Double?)])
  func dates(text: String, format: String?, expected: Double?) throws {
    let selectors = try Self.selectors(format: format)
    #expect(selectors.parseDate(text)?.timeIntervalSince1970 == expected)
  }

  @Test("without title and link selectors: the first heading and the first <a href>")
  func defaults() throws {
    let (_, entries) = try Self.selectors(title: nil, date: nil, content: nil).read(
      Self.page, origin: FeedOrigin())
    #expect(entries.count == 4, "the item with neither is left out")
    #expect(entries[1].title == "Second")
    #expect(entries[1].link == "https://acme.example/post-2.html")
    let links = try Self.selectors(items: "h2 a", title: nil, link: "@href", date: nil)
      .read(Self.page, origin: FeedOrigin()).entries
    #expect(links.map(\.title).first == "Fish &amp; chips", "an item's own text is its title")
    #expect(links.first?.link == "https://acme.example/blog/post-1.html")
  }

  @Test("a selector that matches nothing is said by name")
  func matchesNothing() throws {
    #expect(
      throws: PageSelectors.Failure(
        detail: "the items selector 'li.story' matched nothing on the page")
    ) {
      try Self.selectors(items: "li.story").read(Self.page, origin: FeedOrigin())
    }
    #expect(
      throws: PageSelectors.Failure(
        detail:
          "the title selector 'h5' matched nothing inside any of the 5 items 'article' selected")
    ) {
      try Self.selectors(title: "h5").read(Self.page, origin: FeedOrigin())
    }
    // Items with no heading or link, and no title selector: how to give them one.
    #expect(
      throws: PageSelectors.Failure(
        detail:
          "none of the 3 items 'p' selected has a heading or a link to title it: name its title with --title"
      )
    ) {
      try Self.selectors(items: "p", title: nil, date: nil, content: nil).read(
        Data("<html><body><p>a</p><p>b</p><p>c</p></body></html>".utf8), origin: FeedOrigin())
    }
    #expect(throws: CSSSelector.Failure.self) { try PageSelectors.Field("@") }
  }

  @Test("the adapter keys items by link, notes dates it could not read, keeps undated ones undated")
  func adapter() throws {
    let adapter = PageAdapter(selectors: try Self.selectors(date: "time"))
    let read = try adapter.decode(Self.page, source: "acme", origin: FeedOrigin())
    let (items, notes) = (read.items, read.notes)
    #expect(read.title == "Acme & Co", "the page's own title, kept with its cache entry")
    #expect(items.count == 4)
    #expect(
      items[0].id
        == FeedItem(feed: "x", plainTitle: "t", description: nil, imageURL: nil, url: items[0].url)
        .id)
    #expect(items.allSatisfy { $0.publishedAt == nil })
    #expect(
      notes == [
        "4 dates not read (the first: '1 Nov'; the source's html.dateFormat gives the pattern)"
      ])
    #expect(adapter.format == "html")
  }
}
