import Foundation
import Testing

@testable import FeedParsing
@testable import NewsCore

/// How an article's text reads (#35.4): once, not twice; a line break inside a paragraph is a
/// space; a wrapped quote keeps its mark on every line, a list item hangs under its text.
@Suite("Reading text: once, flowing, with its quotes and items kept")
struct ReadingTextTests {
  @Test(
    "wrapped quotes keep their mark, list items hang",
    arguments: [
      ("> one two three four five six", ["> one two three", "> four five six"]),
      ("> > one two three four five six", ["> > one two", "> > three four", "> > five six"]),
      ("• one two three four five six", ["• one two three", "  four five six"]),
      ("12. one two three four five six", ["12. one two", "    three four", "    five six"]),
      ("\u{A0}\u{A0}• one two three four", ["\u{A0}\u{A0}• one two", "    three four"]),
      ("plain one two three four five", ["plain one two", "three four five"]),
    ])
  func marked(text: String, lines: [String]) {
    #expect(TextWrapper.wrap(text, width: 16) == lines)
    #expect(TextWrapper.wrap(text, width: 16, asciiFastPath: false) == lines)
  }

  @Test("a line break inside a paragraph of HTML is a space; plain text keeps its breaks")
  func lineBreaksInMarkup() {
    #expect(HTMLText.plain("<p>one\ntwo</p><p>three</p>") == "one two\n\nthree")
    #expect(HTMLText.plain("one\r\ntwo &amp; three") == "one\ntwo & three")
    #expect(HTMLText.content("<pre>a\n  b</pre>", base: nil).contains("a\n\u{A0}\u{A0}b"))
  }

  @Test("a description made from the content is shown once")
  func readingTexts() {
    var article = Article(id: "x", provider: "blog", title: "T")
    article.content = "First paragraph\nhere.\n\n> A quote.\n\nSecond."
    article.description = "First paragraph here."
    #expect(article.readingTexts == [article.content!])
    article.description = "First par…"
    #expect(article.readingTexts == [article.content!])
    // The content's link marks (`story[1]`) are not words of its own.
    article.content = "First paragraph[1] with a link[2].\n\nSecond [sic] [x].\n\nLinks:\n[1] …"
    article.description = "First paragraph with a link. Second [sic] [x]."
    #expect(article.readingTexts == [article.content!])
    article.description = "A summary of its own."
    #expect(article.readingTexts == ["A summary of its own.", article.content!])
    article.content = nil
    #expect(article.readingTexts == ["A summary of its own."])
  }

  @Test("an item with only content:encoded gets its first paragraph as description")
  func excerpt() throws {
    let feed = """
      <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel>
      <title>T</title><item><title>Only content</title><link>https://x.example/1</link>
      <content:encoded><![CDATA[<p>First
      part.</p><p>Second part.</p>]]></content:encoded></item></channel></rss>
      """
    let items = try SyndicationAdapter().decode(
      Data(feed.utf8), source: "t", origin: FeedOrigin(url: nil, contentType: nil)
    ).items
    #expect(items.first?.description == "First part.")
    #expect(items.first?.content == "First part.\n\nSecond part.")
    let long = String(repeating: "word ", count: 100)
    #expect(SyndicationAdapter.excerpt(long).count <= 301)
    #expect(SyndicationAdapter.excerpt(long).hasSuffix("word…"))
  }
}
