import Foundation
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

@Suite("Web feeds: RSS, Atom and JSON Feed, detected from the body")
struct SyndicationTests {
  let adapter = SyndicationAdapter()

  func items(_ name: String) throws -> [FeedItem] {
    try adapter.items(from: Fixtures.data("feeds/" + name), source: "w")
  }

  func items(xml text: String) throws -> [FeedItem] {
    try adapter.items(from: Data(text.utf8), source: "w")
  }

  @Test("RSS 2.0 (newsboat's sample): content:encoded, the author's name, an RFC 822 date")
  func rss20() throws {
    let item = try #require(try items("rss20_1.xml").first)
    #expect(item.title == "this is an item")
    #expect(item.url == "http://example.com/blog/this_is_an_item.html")
    #expect(item.author == "Andreas Krennmair")
    #expect(item.description == "oh well, this is the content.")
    #expect(item.publishedAt == Date(timeIntervalSince1970: 1_229_045_770))
  }

  @Test(
    "an item's categories: RSS <category> and dc:subject, Atom's term, JSON Feed's tags",
    arguments: [
      (
        "<rss version=\"2.0\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><channel><item>"
          + "<title>t</title><category domain=\"x\"> Climate\n change </category>"
          + "<category><![CDATA[Open &amp; source]]></category><category>climate change</category>"
          + "<category></category><dc:subject>Energy</dc:subject></item></channel></rss>",
        ["Climate change", "Open &amp; source", "Energy"]
      ),
      (
        "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><title>t</title>"
          + "<category term=\"swift\" label=\"Swift\"/><category term=\"linux\"></category>"
          + "</entry></feed>",
        ["swift", "linux"]
      ),
      (
        #"{"version": "https://jsonfeed.org/version/1.1", "items": [{"id": "1", "title": "t", "#
          + #""tags": ["Swift", 3, "Linux"]}]}"#,
        ["Swift", "Linux"]
      ),
      ("<rss version=\"2.0\"><channel><item><title>t</title></item></channel></rss>", []),
    ])
  func categories(document: String, expected: [String]) throws {
    let item = try #require(try items(xml: document).first)
    #expect(item.categories == expected)
    #expect(item.article.categories == expected)
  }

  @Test("Atom 1.0 (newsboat's sample): CDATA html titles, the alternate link even when not first")
  func atom() throws {
    let items = try items("atom10_1.xml")
    #expect(
      items.map(\.title) == [
        "A gentle introduction to Atom testing", "A missing rel attribute",
        "alternate link isn't first",
      ])
    #expect(items.allSatisfy { $0.url == "http://example.com/atom_testing.html" })
    #expect(items[0].author == "A Person")
    #expect(items[0].publishedAt == ISO8601.date(from: "2008-12-30T20:04:15Z"))
  }

  @Test("entries sharing a link keep their ids as entries come and go, and none has the link's")
  func sharedLinks() throws {
    func ids(_ guids: [String]) throws -> [String] {
      let entries = guids.map { guid in
        "<item><title>Status \(guid)</title><guid>\(guid)</guid>"
          + "<link>https://status.example/</link></item>"
      }
      let feed =
        #"<rss version="2.0"><channel><title>S</title>"#
        + "\(entries.joined())<item><title>Alone</title><link>https://status.example/7</link></item>"
        + "</channel></rss>"
      return try SyndicationAdapter().read(Data(feed.utf8), source: "s", origin: FeedOrigin()).items
        .map(\.id)
    }
    let before = try ids(["s1", "s2"])
    // A new status on top: the two before keep their ids, so their read state stays theirs.
    let after = try ids(["s3", "s1", "s2"])
    #expect(Array(after.dropFirst()) == before)
    #expect(Set(after).count == 4)
    #expect(!after.contains(ArticleID.forLink("https://status.example/")))
    // A link no other entry has is still the link's id (the same story elsewhere is one item).
    #expect(after.last == ArticleID.forLink("https://status.example/7"))
    // The same guid twice: still two items.
    #expect(Set(try ids(["s1", "s1"])).count == 3)
  }

  @Test("RSS 1.0 (RDF, newsboat's sample): dc:date with an offset")
  func rdf() throws {
    let item = try #require(try items("rss10_1.xml").first)
    #expect(item.title == "New Status Updates")
    #expect(item.url == "http://www.example.org/status/foo")
    #expect(item.publishedAt == ISO8601.date(from: "2008-12-30T07:20:00Z"))
  }

  @Test("JSON Feed 1.1: HTML cleaned, a title from the text, useless and broken items left out")
  func jsonFeed() throws {
    let items = try items("jsonfeed11.json")
    #expect(items.count == 2)
    #expect(items[0].title == "First & bold")
    #expect(items[0].description == "Hello world")
    #expect(items[0].author == "Ada")
    #expect(items[0].imageURL == "https://example.org/one.png")
    #expect(items[0].publishedAt == ISO8601.date(from: "2024-05-01T08:00:00Z"))
    #expect(items[1].title == "No title here, so the first words of the text…")
  }

  @Test("a JSON Feed item that is not one is left out, with a note that counts it")
  func jsonFeedBrokenItem() throws {
    let json =
      #"{"version": "https://jsonfeed.org/version/1.1", "title": "T", "items": [{"id": "1", "title": "t", "url": "https://e.example/1"}, 7]}"#
    let document = try adapter.read(Data(json.utf8), source: "w", origin: FeedOrigin())
    #expect(document.items.map(\.title) == ["t"])
    #expect(document.notes == ["1 item that is not a JSON Feed item left out"])
  }

  @Test("every entry with anything in it is kept; only empty ones are left out, with a note")
  func itemRule() throws {
    let xml = """
      <rss version="2.0"><channel><title>T</title>
      <item><title>kept</title><link>https://e.example/1</link></item>
      <item><title>a title alone</title></item>
      <item><guid isPermaLink="false">x-1</guid></item>
      <item><guid>https://e.example/perma</guid></item>
      <item><link>https://e.example/only-link</link></item>
      <item><pubDate>Mon, 02 Jan 2006 15:04:05 GMT</pubDate></item>
      <item></item>
      <item/>
      </channel></rss>
      """
    let document = try adapter.read(Data(xml.utf8), source: "w", origin: FeedOrigin())
    #expect(
      document.items.map(\.title) == [
        "kept", "a title alone", SyndicationAdapter.untitled, "https://e.example/perma",
        "https://e.example/only-link", SyndicationAdapter.untitled,
      ])
    #expect(document.items[3].url == "https://e.example/perma")
    #expect(document.notes == ["2 empty items (nothing but an id, or nothing at all) left out"])
    #expect(document.title == "T")
    // Without a link, the id comes from the guid, else from the title: stable, and one each.
    #expect(document.items[1].id == "w-" + StableHash.hex("a title alone", "", length: 6))
    #expect(document.items[2].id == "w-" + StableHash.hex("x-1", length: 10))
    let again = try adapter.read(Data(xml.utf8), source: "w", origin: FeedOrigin())
    #expect(again.items.map(\.id) == document.items.map(\.id))
    #expect(Set(document.items.map(\.id)).count == document.items.count)
  }

  @Test("a 5 MB feed of 5,000 items is read whole, each item with its fields")
  func bigFeed() throws {
    var xml =
      #"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Big</title>"#
    for index in 0..<5_000 {
      xml += """
        <item><title>Item \(index) &amp; more</title><link>https://big.example/\(index)</link>
        <pubDate>Mon, 23 Nov 2026 08:00:00 GMT</pubDate><description><![CDATA[<p>\(
          String(repeating: "Words of a long summary, ", count: 40))</p>]]></description></item>

        """
    }
    xml += "</channel></rss>"
    #expect(xml.utf8.count > 5_000_000)
    let items = try items(xml: xml)
    #expect(items.count == 5_000)
    #expect(items[4_999].title == "Item 4999 & more")
    #expect(items[4_999].id == "big.example-4999")
    #expect(
      items.allSatisfy { $0.publishedAt != nil && $0.description?.hasPrefix("Words") == true })
  }

  @Test("media:, enclosure images, xml:base for relative links, RSS 0.91")
  func details() throws {
    let items = try items(
      xml: """
        <?xml version="1.0"?>
        <rss version="0.91" xmlns:media="http://search.yahoo.com/mrss/"><channel>
        <item xml:base="https://example.org/news/"><title>Relative</title><link>story.html</link>
        <media:thumbnail url="https://example.org/t.jpg"/></item>
        <item><title>Enclosed</title><link>https://example.org/e</link>
        <enclosure url="https://example.org/e.png" type="image/png" length="1"/></item>
        </channel></rss>
        """)
    #expect(items[0].url == "https://example.org/news/story.html")
    #expect(items[0].imageURL == "https://example.org/t.jpg")
    #expect(items[1].imageURL == "https://example.org/e.png")
  }

  @Test(
    "no external entity is loaded and no entity bomb goes off: a declared entity stays as written",
    arguments: [
      (
        """
        <?xml version="1.0"?><!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
        <rss version="2.0"><channel><item><title>&xxe;</title></item></channel></rss>
        """, "&xxe;"
      ),
      (
        """
        <?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">
        <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;">]>
        <rss version="2.0"><channel><item><title>&lol4; &amp; &nbsp;</title></item></channel></rss>
        """, "&lol4; &"
      ),
    ])
  func entities(xml: String, title: String) throws {
    #expect(try items(xml: xml).map(\.title) == [title])
  }

  @Test(
    "foreign documents fail that source with a message; a cut document keeps what it had",
    arguments: [
      ("<html><body>a page</body></html>", "a web page, not a feed, and it links to no feed"),
      ("", "not an RSS or Atom feed"),
      ("just some text", "not an RSS or Atom feed"),
      (#"{"version": "1", "items": []}"#, "not a JSON Feed"),
    ])
  func broken(text: String, mention: String) {
    #expect {
      try items(xml: text)
    } throws: { error in
      (error as? FeedError)?.message.contains(mention) == true
    }
  }

  @Test("a document cut short keeps the items it had")
  func cutShort() throws {
    #expect(try items(xml: "<rss><channel><item><title>open").map(\.title) == ["open"])
  }

  @Test(
    "regressions (fuzzing): inputs that crashed Foundation's XMLParser are errors, not crashes",
    arguments: [
      Data([0x3C, 0xF6, 0x7B]) + Data(#"xml version="1.0"?><rss/>"#.utf8),
      Data("<?x?>\n\n<rssvo d>".utf8),
      Data("<?xml version=\"1.0\"?><rss version=\"2.0\"><?pi   ?><channel/></rss>".utf8),
    ])
  func foundationCrashes(input: Data) {
    // Read without a crash, to a source error the user can read or to no item at all: none of
    // these holds an item.
    do {
      let items = try adapter.items(from: input, source: "w")
      #expect(items.isEmpty, "\(items.map(\.title))")
    } catch {
      let message = (error as? any NewsError)?.message ?? ""
      #expect(message.hasPrefix("source w"), "\(error)")
    }
  }

  @Test("a wrong or foreign encoding is read as what it is")
  func encodings() throws {
    let latin1 =
      Data(
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss><channel><item><title>Caf"
          .utf8) + Data([0xE9])
      + Data("</title><link>https://x/1</link></item></channel></rss>".utf8)
    #expect(try adapter.items(from: latin1, source: "w").first?.title == "Café")
    // Declared UTF-8 but Windows-1252 in fact: read as such rather than refused.
    let mislabelled =
      Data(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><rss><channel><item><title>"
          .utf8) + Data([0x93, 0x68, 0x69, 0x94])
      + Data("</title><link>https://x/2</link></item></channel></rss>".utf8)
    #expect(try adapter.items(from: mislabelled, source: "w").first?.title == "“hi”")
    // A charset the toolchain does not know: UTF-8 when the bytes are, else Windows-1252.
    let unknown = Data(
      #"<?xml version="1.0" encoding="EBCDIC-XYZ"?><rss><item><title>Tést</title></item></rss>"#
        .utf8)
    #expect(try adapter.items(from: unknown, source: "w").first?.title == "Tést")
  }
}

@Suite("Charset labels")
struct CharsetLabelTests {
  @Test(
    "a charset label is read whatever its case, as the code page it names",
    arguments: [
      ("windows-1250", [UInt8(0xE8)], "č"), ("WINDOWS-1250", [0xE8], "č"),
      ("Windows-1251", [0xE8], "и"), ("windows-1253", [0xE8], "θ"),
      ("WINDOWS-1254", [0xF0], "ğ"), ("windows-1257", [0xE8], "č"),
      ("ISO-8859-2", [0xE8], "č"), ("Windows-1252", [0xE8], "è"),
    ])
  func label(label: String, bytes: [UInt8], title: String) throws {
    let xml =
      Data("<?xml version=\"1.0\" encoding=\"\(label)\"?><rss><channel><item><title>".utf8)
      + Data(bytes) + Data("</title><link>https://x/1</link></item></channel></rss>".utf8)
    let items = try SyndicationAdapter().items(from: xml, source: "w")
    #expect(items.first?.title == title)
  }

  @Test("C1 controls in UTF-8 text are what Windows-1252 puts there")
  func c1InUTF8() throws {
    let xml = Data(
      "<rss><channel><item><title>It\u{92}s \u{93}quoted\u{94} \u{80}5</title><link>https://x/1</link></item></channel></rss>"
        .utf8)
    let items = try SyndicationAdapter().items(from: xml, source: "w")
    #expect(items.first?.title == "It’s “quoted” €5")
    #expect(FeedCharset.mappingC1("plain é") == "plain é")
  }

  @Test(
    "a second summary is the content when there is none, as feedparser reads it",
    arguments: [
      ("<description>DESC</description><summary>SUM</summary>", "DESC", "SUM" as String?),
      ("<summary>SUM</summary><description>DESC</description>", "SUM", "DESC"),
      ("<media:group><media:description>MEDIA</media:description></media:group>", "MEDIA", nil),
      (
        "<description>DESC</description><media:group><media:description>MEDIA</media:description></media:group>",
        "DESC", "MEDIA"
      ),
      ("<itunes:summary>IT</itunes:summary><description>DESC</description>", "IT", "DESC"),
      (
        "<description>DESC</description><summary>SUM</summary><content:encoded>FULL</content:encoded>",
        "DESC", "FULL"
      ),
    ])
  func secondSummary(elements: String, summary: String, content: String?) throws {
    let xml = """
      <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" \
      xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" \
      xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>T</title>\
      <item><title>A</title><link>https://x/1</link>\(elements)</item></channel></rss>
      """
    let item = try #require(try SyndicationAdapter().items(from: Data(xml.utf8), source: "w").first)
    #expect(item.description == summary)
    #expect(item.content == content)
  }

  @Test(
    "a description of HTML with links, lists, quotes or images, and no other text, is read as content is",
    arguments: [
      (
        #"<p>See <a href="/rel">this</a>.</p><p>More.</p>"#,
        "See this[1].\n\nMore.\n\nLinks:\n[1] https://x.example/rel" as String?
      ),
      ("<p>Two:</p><ul><li>one</li><li>two</li></ul>", "Two:\n\n• one\n• two"),
      ("<p>Steps:</p><ol><li>one</li><li>two</li></ol>", "Steps:\n\n1. one\n2. two"),
      ("<p>Said:</p><blockquote>so</blockquote>", "Said:\n\n> so"),
      (#"<p>A photo.</p><img src="p.jpg" alt="cat">"#, "A photo.\n\n[image: cat]"),
      ("<p>One paragraph.</p><p>And <b>another</b>.</p>", nil),
      ("Plain text only.", nil),
    ])
  func descriptionAsContent(html: String, content: String?) throws {
    let xml = """
      <rss version="2.0"><channel><title>T</title><link>https://x.example/</link>\
      <item><title>A</title><link>https://x.example/1</link>\
      <description>\(XMLEscaping.escaped(html, quotes: false))</description></item></channel></rss>
      """
    let origin = FeedOrigin(url: URL(string: "https://x.example/feed"), contentType: nil)
    let items = try SyndicationAdapter().decode(Data(xml.utf8), source: "w", origin: origin).items
    let item = try #require(items.first)
    #expect(item.content == content)
    #expect(item.description == HTMLText.plain(html))
    var article = Article(id: "x", provider: "w", title: "A")
    article.description = item.description
    article.content = item.content
    // Shown once: the content, which begins with the description's words.
    #expect(article.readingTexts == [content ?? HTMLText.plain(html)])
  }

  @Test(
    "the site a feed is of: RSS's channel link, Atom's alternate link, JSON Feed's home page",
    arguments: [
      (
        "<rss><channel><title>T</title><link>/blog/</link><item><title>A</title>"
          + "<link>https://x.example/1</link></item></channel></rss>",
        "https://x.example/blog/" as String?
      ),
      (
        #"<rss xmlns:atom="http://www.w3.org/2005/Atom"><channel><atom:link rel="self" href="https://x.example/feed"/>"#
          + "<link>https://x.example/</link></channel></rss>",
        "https://x.example/"
      ),
      (
        #"<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><link rel="self" href="/feed"/>"#
          + #"<link rel="alternate" type="application/rss+xml" href="/rss"/><link href="/site/"/></feed>"#,
        "https://x.example/site/"
      ),
      (
        #"{"version": "https://jsonfeed.org/version/1.1", "home_page_url": "https://j.example/", "items": []}"#,
        "https://j.example/"
      ),
      ("<rss><channel><title>T</title><link>javascript:x()</link></channel></rss>", nil),
      ("<rss><channel><title>T</title></channel></rss>", nil),
    ])
  func site(document: String, site: String?) throws {
    let origin = FeedOrigin(url: URL(string: "https://x.example/feed"), contentType: nil)
    let read = try SyndicationAdapter().read(Data(document.utf8), source: "w", origin: origin)
    #expect(read.site == site)
  }

  @Test("relative links resolve against the response's Content-Location, as feedparser reads them")
  func contentLocation() throws {
    let xml =
      #"<rss version="2.0"><channel><title>T</title><item><title>A</title><link>post/1</link></item></channel></rss>"#
    let served = try #require(URL(string: "https://x.example/redirected/feed"))
    for (location, link) in [
      ("/feeds/main.xml" as String?, "https://x.example/feeds/post/1"),
      ("https://cdn.example/a/b.xml", "https://cdn.example/a/post/1"),
      (nil, "https://x.example/redirected/post/1"),
    ] {
      let response = HTTPResponse(
        status: 200, headers: location.map { ["content-location": $0] } ?? [:],
        body: Data(xml.utf8), url: served)
      let items = try SyndicationAdapter().decode(
        response.body, source: "w", origin: response.origin
      ).items
      #expect(items.first?.url == link)
    }
  }

  @Test(
    "an entry's link: its id or guid when it has none usable; CDF's BASE",
    arguments: [
      (
        #"<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><entry><title>A</title><id>https://x.example/1</id></entry></feed>"#,
        "https://x.example/1" as String?
      ),
      (
        #"<rss version="2.0"><channel><title>T</title><item><title>A</title><guid isPermaLink="false">https://x.example/3</guid></item></channel></rss>"#,
        nil
      ),
      (
        #"<rss version="2.0"><channel><title>T</title><item><title>A</title><link>javascript:alert(1)</link><guid>https://x.example/5</guid></item></channel></rss>"#,
        "https://x.example/5"
      ),
      (
        #"<CHANNEL HREF="http://x.example/cdf/" BASE="http://x.example/cdf/"><TITLE>T</TITLE><ITEM HREF="item1.html"><TITLE>A</TITLE></ITEM></CHANNEL>"#,
        "http://x.example/cdf/item1.html"
      ),
    ])
  func entryLink(xml: String, link: String?) throws {
    let items = try SyndicationAdapter().items(from: Data(xml.utf8), source: "w")
    #expect(items.first?.url == link)
  }
}
