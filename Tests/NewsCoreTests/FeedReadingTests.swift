import Foundation
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

@Suite("Reading feeds: the tokenizer, charsets, HTML to text, limits")
struct FeedReadingTests {
  @Test("the tokenizer reads what XML parsers refuse, and never expands a declared entity")
  func tokenizer() {
    var tokenizer = XMLTokenizer(
      Array(
        #"<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "boom">]><a k=v flag b='1 &amp; 2'>Tom & Jerry &nbsp;&e; 1 < 2<!-- c > d --><![CDATA[<raw>]]></A><open"#
          .utf8))
    var tokens: [XMLToken] = []
    while let token = tokenizer.next() { tokens.append(token) }
    #expect(
      tokens == [
        .start(
          XMLStartTag(
            name: "a",
            attributes: [
              XMLAttribute(name: "k", value: "v"), XMLAttribute(name: "flag", value: ""),
              XMLAttribute(name: "b", value: "1 & 2"),
            ])),
        .text("Tom & Jerry \u{00A0}&e; 1 < 2"), .cdata("<raw>"), .end(name: "A"),
        .start(XMLStartTag(name: "open")),
      ])
  }

  @Test(
    "character references: numeric, hexadecimal, Windows-1252's C1 range, invalid ones",
    arguments: [
      ("&#233;&#xE9;&#XE9;", "ééé"), ("&#146;&#x93;", "’“"),
      ("&#0;&#xD800;&#1114112;", "\u{FFFD}\u{FFFD}\u{FFFD}"),
      ("&#;&#x;&;&amp", "&#;&#x;&;&amp"),
      ("&Eacute;&eacute;&hellip;", "Éé…"),
      // UTF-8's bytes read as Latin-1 and escaped (#59): the character they spell, as
      // feedparser reads them; named or numeric, only a whole, valid sequence, and only with a
      // C1 control in it (which no text has): É and a no-break space stay what they are.
      ("&#226;&#128;&#166;", "…"), ("&acirc;&#128;&brvbar;", "…"), ("x&#xE2;&#x80;&#x99;s", "x’s"),
      ("&#xF0;&#x9F;&#x93;&#xB0; news", "📰 news"), ("&#226;&#128;", "â€"),
      ("&#195;&#195;&#130;", "ÃÂ"), ("&#237;&#160;&#128;", "í\u{A0}€"),
      ("&#226; &#128;&#166;", "â €¦"), ("&Eacute;&nbsp;&szlig;&nbsp;", "É\u{A0}ß\u{A0}"),
      ("&#195;&#169;", "Ã©"),
    ])
  func references(text: String, expected: String) {
    #expect(XMLTokenizer.decodingReferences(Array(text.utf8)[...]) == expected)
  }

  @Test("an element's attributes and the nesting depth are capped, counted and noted")
  func limits() throws {
    let attributes = (0..<400_000).map { "a\($0)=\"\($0)\"" }.joined(separator: " ")
    let wide = "<rss><channel><item \(attributes)><title>wide</title></item></channel></rss>"
    let document = try FeedDocumentParser.parse(Data(wide.utf8))
    #expect(document.entries.map(\.title) == ["wide"])
    #expect(
      document.notes == [
        "\(400_000 - XMLTokenizer.maximumAttributes) attributes past 64 on one element ignored"
      ])
    let depth = 100_000
    let deep =
      "<rss><channel><item><title>deep</title>" + String(repeating: "<x>", count: depth)
      + String(repeating: "</x>", count: depth) + "</item></channel></rss>"
    let nested = try FeedDocumentParser.parse(Data(deep.utf8))
    #expect(nested.entries.map(\.title) == ["deep"])
    #expect(
      nested.notes == [
        "\(depth + 3 - FeedDocumentParser.maximumDepth) elements nested deeper than 256 ignored"
      ])
  }

  @Test("a read that is cancelled (its source's deadline passed) stops instead of finishing")
  func cancelledRead() async throws {
    let items = String(repeating: "<item><title>t</title></item>", count: 10_000)
    let document = Data("<rss><channel>\(items)</channel></rss>".utf8)
    let finished = Task { try FeedDocumentParser.parse(document).entries.count }
    #expect(try await finished.value == 10_000)
    let cancelled = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try FeedDocumentParser.parse(document).entries.count
    }
    await #expect(throws: FeedDocumentParser.Failure(detail: "reading it was cancelled")) {
      _ = try await cancelled.value
    }
  }

  /// Bytes: `text` as UTF-8, then `tail`.
  static func bytes(_ text: String, _ tail: [UInt8] = []) -> Data {
    Data(text.utf8) + Data(tail)
  }

  static let charsetCases: [(Data, String?, String)] = [
    // The mark wins over a wrong declaration and a wrong header.
    (bytes("\u{FEFF}<?xml encoding=\"koi8-r\"?>é"), "koi8-r", "é"),
    // The header wins over the declaration.
    (bytes("<?xml encoding=\"iso-8859-1\"?>", [0xF0]), "koi8-r", "П"),
    (bytes("<?xml encoding=\"iso-8859-1\"?>", [0xF0]), nil, "ð"),
    (bytes("<?xml encoding='windows-1251'?>", [0xC0]), nil, "А"),
    // ASCII and ISO-8859-1 are Windows-1252.
    (bytes("<?xml encoding=\"us-ascii\"?>", [0x80]), nil, "€"),
    // No label: UTF-8 when it is, else Windows-1252.
    (bytes("<a>", [0xC3, 0xA9]), nil, "é"),
    (bytes("<a>", [0xE9]), nil, "é"),
    // A label nobody knows falls back the same way.
    (bytes("<?xml encoding=\"x-unknown\"?>", [0xE9]), nil, "é"),
    // DOS and Mac code pages under their aliases, and EBCDIC found by its `<?xm`.
    (bytes("<?xml encoding=\"IBM437\"?>", [0x80]), nil, "Ç"),
    (bytes("<?xml encoding=\"cspc850multilingual\"?>", [0x80]), nil, "Ç"),
    (bytes("<?xml encoding=\"866\"?>", [0x80]), nil, "А"),
    (bytes("<?xml encoding=\"x-mac-cyrillic\"?>", [0x80]), nil, "А"),
    (bytes("<?xml encoding=\"csisolatin2\"?>", [0xB1]), nil, "ą"),
    (Data([0x4C, 0x6F, 0xA7, 0x94, 0x93, 0x6F, 0x6E, 0xC1]), nil, "A"),
    // EUC-JP, which Foundation does not decode on Linux.
    (bytes("<?xml encoding=\"euc-jp\"?>", [0xA4, 0xA2, 0x8E, 0xB1]), nil, "あｱ"),
  ]

  @Test(
    "charsets in the order browsers use: byte-order mark, HTTP, declaration, then UTF-8 or Windows-1252",
    arguments: charsetCases)
  func charsets(data: Data, header: String?, suffix: String) {
    #expect(FeedCharset.decode(data, httpCharset: header).hasSuffix(suffix))
  }

  @Test("the Content-Type charset parameter, quoted or not")
  func contentTypeCharset() {
    #expect(FeedCharset.charset(ofContentType: "text/xml; charset=\"UTF-16\"") == "UTF-16")
    #expect(FeedCharset.charset(ofContentType: "application/rss+xml;CHARSET=koi8-r") == "koi8-r")
    #expect(FeedCharset.charset(ofContentType: "application/xml") == nil)
    #expect(FeedCharset.charset(ofContentType: nil) == nil)
  }

  @Test(
    "HTML to text: script, style, noscript and comments are never text; blocks end paragraphs",
    arguments: [
      (
        "<script>location.href='x'; if (a < b) {}</script><p>Kept</p><style>p { color: red }</style>",
        "Kept"
      ),
      ("<p>One</p><p>Two</p>", "One\n\nTwo"), ("a<br>b<BR/>c", "a\nb\nc"),
      ("<!-- a > b -->text<noscript>enable JS</noscript>", "text"),
      ("<SCRIPT type='x'>never</SCRIPT>shown", "shown"), ("<script>unclosed", ""),
      ("&lt;b&gt; is a tag", "<b> is a tag"), ("<h1>Title</h1>Body", "Title\n\nBody"),
      ("<blockquote>Quoted</blockquote>after", "Quoted\n\nafter"),
    ])
  func htmlToText(html: String, text: String) {
    #expect(HTMLText.plain(html) == text)
  }

  @Test("JSON Feed 1.0: author, content_text, date_modified, external_url, a relative url")
  func jsonFeed10() throws {
    let json = """
      {"version": "https://jsonfeed.org/version/1", "title": "Old", "items": [
        {"id": "a", "url": "/posts/a", "content_text": "Plain <not a tag>", "author": {"name": "Bo"},
         "date_modified": "2024-01-03T00:00:00Z"},
        {"id": "b", "external_url": "https://elsewhere.example/b", "summary": "Short",
         "content_html": "<p>Long</p>", "date_published": "2024-01-02", "date_modified": "2024-01-05"}
      ]}
      """
    let read = try SyndicationAdapter().decode(
      Data(json.utf8), source: "j",
      origin: FeedOrigin(url: URL(string: "https://site.example/feed.json")))
    let (items, notes) = (read.items, read.notes)
    #expect(notes.isEmpty)
    #expect(items.map(\.url) == ["https://site.example/posts/a", "https://elsewhere.example/b"])
    #expect(items[0].description == "Plain <not a tag>")
    #expect(items[0].author == "Bo")
    #expect(items[0].publishedAt == ISO8601.date(from: "2024-01-03T00:00:00Z"))
    #expect(items[1].description == "Short")
    #expect(items[1].content == "Long")
    #expect(items[1].publishedAt == ISO8601.date(from: "2024-01-02T00:00:00Z"))
  }

  @Test(
    "authors: a name, RSS's e-mail (Name), Name <e-mail>, or an address alone",
    arguments: [
      (nil, nil, "jane@example.com (Jane Roe)", "Jane Roe"),
      (nil, nil, "Jane Roe <jane@example.com>", "Jane Roe"),
      (nil, nil, "jane@example.com", "jane@example.com"),
      (nil, nil, "Jane Roe", "Jane Roe"),
      ("Ann", "ann@example.com", "", "Ann"),
      (nil, "ann@example.com", "", "ann@example.com"),
      (nil, nil, "  ", nil),
    ] as [(String?, String?, String, String?)])
  func authors(name: String?, email: String?, text: String, expected: String?) {
    #expect(FeedDocumentParser.personName(name: name, email: email, text: text) == expected)
  }

  @Test("links: resolved against xml:base and the document, chosen by RFC 4287")
  func links() {
    let base = URL(string: "http://example.com/a/b/feed.xml")
    #expect(FeedLinks.resolve("../c.html", against: base) == "http://example.com/a/c.html")
    #expect(FeedLinks.resolve(" /root ", against: base) == "http://example.com/root")
    #expect(
      FeedLinks.resolve("with space.html", against: base)
        == "http://example.com/a/b/with%20space.html")
    #expect(FeedLinks.resolve("mailto:x@y", against: base) == "mailto:x@y")
    #expect(FeedLinks.resolve("rel", against: nil) == "rel")
    let candidates = [
      FeedLinks.candidate(rel: "self", type: nil, href: "s"),
      FeedLinks.candidate(rel: "alternate", type: "application/pdf", href: "pdf"),
      FeedLinks.candidate(
        rel: "http://www.iana.org/assignments/relation/alternate", type: "text/html; charset=utf-8",
        href: "html"),
    ]
    #expect(FeedLinks.choose(candidates, text: "t", permalink: "p") == "html")
    #expect(FeedLinks.choose(Array(candidates.prefix(2)), text: "t", permalink: "p") == "t")
    #expect(FeedLinks.choose(Array(candidates.prefix(2)), text: nil, permalink: "p") == "pdf")
    #expect(FeedLinks.choose(Array(candidates.prefix(1)), text: nil, permalink: "p") == "p")
  }
}

@Suite("An article's content keeps its images as marks")
struct ContentImageTests {
  @Test("show's content marks images in place; the summary line does not")
  func images() throws {
    let xml = """
      <rss><channel><item><title>Pictures</title><link>https://e.example/p</link>
      <content:encoded><![CDATA[<p>Before <img src="a.png" alt="A cat"> after <IMG SRC='b.png'></p>]]></content:encoded>
      </item></channel></rss>
      """
    let item = try #require(try SyndicationAdapter().items(from: Data(xml.utf8), source: "w").first)
    #expect(item.description == "Before after")
    #expect(item.content == "Before [image: A cat] after [image]")
  }

  @Test("show's content numbers its links and lists them, resolved; the summary line does not")
  func links() throws {
    let xml = """
      <rss><channel><item><title>Links</title><link>https://e.example/p</link>
      <description>See the docs.</description>
      <content:encoded><![CDATA[<p>See <a href="/docs">the docs</a> and <A HREF='https://b.example/'>b</A>, <a href="/docs">again</a>, <a href="mailto:x@y">mail</a> and <a>nothing</a>.</p>]]></content:encoded>
      </item></channel></rss>
      """
    let items = try SyndicationAdapter().decode(
      Data(xml.utf8), source: "w", origin: FeedOrigin(url: URL(string: "https://e.example/feed"))
    ).items
    let item = try #require(items.first)
    #expect(item.description == "See the docs.")
    #expect(
      item.content
        == "See the docs[1] and b[2], again[1], mail and nothing.\n\nLinks:\n[1] https://e.example/docs\n[2] https://b.example/"
    )
  }
}

@Suite("What a feed says is stored and shown only once cleaned")
struct FeedSanitizingTests {
  @Test(
    "escape sequences, C0 and C1 controls and bidi overrides never reach an item, JSON included")
  func controls() throws {
    let xml =
      "<rss><channel><title>T\u{1B}[2J</title><item><title>Ti\u{1B}[31mtle\u{0007}\u{202E}x</title>"
      + "<link>https://e.example/\u{0001}a</link><author>A\u{009B}2Jb</author>"
      + "<description>One\u{0085}\ntwo &#x9B;&#27;</description></item></channel></rss>"
    let read = try SyndicationAdapter().read(Data(xml.utf8), source: "w", origin: FeedOrigin())
    let item = try #require(read.items.first)
    let texts = [read.title, item.title, item.url, item.author, item.description].compactMap { $0 }
    #expect(texts.count == 5)
    for text in texts {
      #expect(
        !text.unicodeScalars.contains {
          ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
            || $0 == "\u{202E}"
        }, "\(text.debugDescription)")
    }
    #expect(item.title == "Titlex")
  }
}

@Suite("media RSS text as feedparser reads it")
struct MediaTextTests {
  @Test("media:title type=\"plain\" is the title of an entry without one; its group's text too")
  func plainMediaTitle() throws {
    let feed = """
      <feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/">
      <entry><id>tag:x,2026:6</id><media:group><media:title type="plain">Media &amp; title</media:title>
      <media:description type="plain">Media desc</media:description></media:group></entry></feed>
      """
    let entry = try #require(try FeedDocumentParser.parse(Data(feed.utf8)).entries.first)
    #expect(entry.title == "Media & title")
    #expect(entry.summary == "Media desc")
    #expect(entry.link == "tag:x,2026:6", "an absolute id stands in for the link, as feedparser's")
  }
}
