import Foundation
import TestSupport
import Testing

@testable import NewsCore

/// The project's own edge-case feeds (`Fixtures/feeds/edge/`, written for these tests): one
/// document for each way the web's feeds go wrong or go beyond the basics. Every one of them was
/// refused or misread by the `XMLParser`-based reader this one replaced, and each expectation
/// agrees with feedparser's reading of the same document (checked by hand), except where the
/// README says `news` differs (script, style and noscript are never text; an entity the document
/// declares is never expanded).
@Suite("Feed fidelity: the edge-case documents")
struct FeedFidelityTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var file: String
    var title: String
    var url: String?
    var date: String?
    var text: String?
    var author: String?
    var count: Int

    init(
      _ file: String, title: String, url: String?, date: String?, text: String?, author: String?,
      count: Int
    ) {
      (self.file, self.title, self.url, self.date, self.text, self.author, self.count) = (
        file, title, url, date, text, author, count
      )
    }

    var testDescription: String { file }
  }

  static let cases: [Case] = [
    Case(
      "atom-source.xml", title: "Has a source", url: "urn:6",
      date: "2024-03-01T10:00:00Z", text: nil, author: nil,
      count: 1),
    Case(
      "atom-text-blink.xml", title: "History of the <blink> tag",
      url: "http://kettle.example/blink",
      date: "2024-03-01T10:00:00Z", text: "Plain <b>not bold</b>", author: nil,
      count: 1),
    Case(
      "atom-xhtml.xml", title: "An xhtml title", url: "http://kettle.example/x",
      date: "2024-03-01T10:00:00Z", text: "Summary in xhtml & more.", author: nil,
      count: 1),
    Case(
      "atom03-base64.xml", title: "Base64 body", url: "http://kettle.example/b64",
      date: "2004-01-02T03:04:05Z", text: "Decoded text", author: nil,
      count: 1),
    Case(
      "atom03-escaped.xml", title: "Escaped title", url: "http://kettle.example/esc",
      date: "2004-01-02T03:04:05Z", text: "Body", author: nil,
      count: 1),
    Case(
      "author-email.xml", title: "Authored", url: "http://kettle.example/au",
      date: nil, text: nil, author: "Jane Roe",
      count: 1),
    Case(
      "bare-amp.xml", title: "Fish & chips", url: "http://kettle.example/a?x=1&y=2",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "content-encoded.xml", title: "Content", url: "http://kettle.example/c",
      date: nil, text: "Full content", author: nil,
      count: 1),
    Case(
      "cp1252-undeclared.xml", title: "Café undeclared", url: "http://kettle.example/und",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "cs-big5.xml", title: "你好世界", url: "http://kettle.example/big5",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "cs-euc-jp.xml", title: "こんにちは", url: "http://kettle.example/euc-jp",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "cs-euc-kr.xml", title: "안녕하세요", url: "http://kettle.example/euc-kr",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "cs-gb2312.xml", title: "你好世界", url: "http://kettle.example/gb2312",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "cs-iso-8859-15.xml", title: "Prix en €", url: "http://kettle.example/iso-8859-15",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "cs-iso-8859-2.xml", title: "Zażółć gęślą", url: "http://kettle.example/iso-8859-2",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "cs-iso-8859-7.xml", title: "Καλημέρα", url: "http://kettle.example/iso-8859-7",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "cs-koi8-r.xml", title: "Привет мир", url: "http://kettle.example/koi8-r",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "cs-shift_jis.xml", title: "こんにちは世界", url: "http://kettle.example/shift_jis",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "cs-windows-1251.xml", title: "Привет", url: "http://kettle.example/windows-1251",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "dcterms.xml", title: "A dc title", url: "http://kettle.example/dc",
      date: "2024-02-03T03:05:06Z", text: "DC description", author: "Jane Doe",
      count: 3),
    Case(
      "desc-only.xml", title: "Only a description with bold text.", url: nil,
      date: nil, text: "Only a description with bold text.", author: nil,
      count: 1),
    Case(
      "entity-decl.xml", title: "Declared &boom2; entity", url: "http://kettle.example/e",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "guid-false.xml", title: "Not a link", url: nil,
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "guid-only.xml", title: "http://kettle.example/perma", url: "http://kettle.example/perma",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "http-charset.xml", title: "Привет из заголовка", url: "http://kettle.example/h",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "itunes.xml", title: "Episode", url: "http://kettle.example/ep",
      date: nil, text: "Episode summary here.", author: "Sam Host",
      count: 2),
    Case(
      "jsonfeed10.json", title: "JSON one", url: "http://kettle.example/j1",
      date: "2024-01-02T03:04:05Z", text: "Hello there", author: "Ann",
      count: 3),
    Case(
      "latin1-cp1252.xml", title: "don’t stop “quoted”", url: "http://kettle.example/q",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "link-choice.xml", title: "Links", url: "http://kettle.example/right",
      date: "2024-03-01T10:00:00Z", text: nil, author: nil,
      count: 1),
    Case(
      "link-only.xml", title: "http://kettle.example/only-link",
      url: "http://kettle.example/only-link",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "mislabelled-utf8.xml", title: "Café mislabelled", url: "http://kettle.example/mis",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "nbsp.xml", title: "Tea time — a story…", url: "http://kettle.example/tea",
      date: nil, text: "Steeped & poured\u{00A0}slowly.", author: nil,
      count: 1),
    Case(
      "open-tag.xml", title: "First", url: "http://kettle.example/1",
      date: nil, text: nil, author: nil,
      count: 2),
    Case(
      "prefix.xml", title: "Prefixed entry", url: "http://kettle.example/pre",
      date: "2024-01-01T00:00:00Z", text: nil, author: nil,
      count: 1),
    Case(
      "raw-html-desc.xml", title: "Raw html", url: "http://kettle.example/raw",
      date: nil, text: "Raw markup & text", author: nil,
      count: 1),
    Case(
      "rdf.xml", title: "RDF item", url: "http://kettle.example/r1",
      date: "2024-01-02T03:04:05Z", text: nil, author: nil,
      count: 1),
    Case(
      "relative-links.xml", title: "Relative", url: "http://kettle.example/posts/2024/one.html",
      date: "2024-03-01T10:00:00Z", text: nil, author: nil,
      count: 2),
    Case(
      "rss-enclosure.xml", title: "Podcast", url: nil,
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "rss-relative.xml", title: "Relative RSS", url: "http://feeds.example/posts/rel.html",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "script-style.xml", title: "Scripted", url: "http://kettle.example/s",
      date: nil, text: "The real text.", author: nil,
      count: 1),
    Case(
      "title-html-guess.xml", title: "Bold move", url: "http://kettle.example/g",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "title-only.xml", title: "Only a title", url: nil,
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "undeclared-ns.xml", title: "No ns decl", url: "http://kettle.example/nsd",
      date: "2024-05-06T07:08:09Z", text: nil, author: "Undeclared Author",
      count: 1),
    Case(
      "uppercase.xml", title: "Upper item", url: "http://kettle.example/UP",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "utf-16-be-bom.xml", title: "Café über naïve", url: "http://kettle.example/cafe",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "utf-16-le-bom.xml", title: "Café über naïve", url: "http://kettle.example/cafe",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "utf-16-nobom.xml", title: "Café sans marque", url: "http://kettle.example/nobom",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "utf-32-be-bom.xml", title: "Café über naïve", url: "http://kettle.example/cafe",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "utf-32-le-bom.xml", title: "Café über naïve", url: "http://kettle.example/cafe",
      date: nil, text: nil, author: nil,
      count: 1),
    Case(
      "xhtml-body.xml", title: "Body", url: "http://kettle.example/body",
      date: nil, text: "Body text bold.", author: nil,
      count: 1),
  ]

  @Test("each document's first item: title, link, date, text, author", arguments: cases)
  func document(_ expected: Case) throws {
    let origin = FeedOrigin(
      url: URL(string: "http://feeds.example/dir/feed.xml"),
      contentType: expected.file == "http-charset.xml"
        ? "application/xml; charset=koi8-r" : "application/xml")
    let (items, _) = try SyndicationAdapter().decode(
      Fixtures.data("feeds/edge/" + expected.file), source: "w", origin: origin)
    #expect(items.count == expected.count)
    let item = try #require(items.first)
    #expect(item.title == expected.title)
    #expect(item.url == expected.url)
    #expect(item.publishedAt.map(ISO8601.string(from:)) == expected.date)
    #expect(item.subtitle == expected.text)
    #expect(item.author == expected.author)
  }
}
