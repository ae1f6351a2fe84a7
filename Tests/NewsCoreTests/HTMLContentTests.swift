import Foundation
import Testing

@testable import FeedParsing
@testable import NewsCore

@Suite("an article's HTML content as text worth reading")
struct HTMLContentTests {
  @Test(
    "which markup content shows and plain text does not: links, images, list items, quotes",
    arguments: [
      ("<p>One <b>bold</b> line.</p>", false), (#"<A HREF="x">x</A>"#, true),
      ("<abbr>x</abbr>", false), ("<ul><li>x</li></ul>", true), ("<link>x</link>", false),
      ("<pre>a  b</pre>", true), ("<preface>", false), ("a < b and c > d", false),
      (#"<img src="x"/>"#, true), ("<blockquote>x", true), ("plain", false), ("<", false),
    ])
  func contentMarkup(html: String, shows: Bool) {
    #expect(HTMLText.hasContentMarkup(html) == shows)
    // What it says is what the two renderings say.
    #expect(
      (HTMLText.content(html, base: URL(string: "https://x.example/")) != HTMLText.plain(html))
        == shows)
  }

  @Test(
    "the marks content puts after a link's text, and what else in brackets is not one",
    arguments: [
      ("story[1] and more[12].", ["[1]", "[12]"], [1, 12]),
      ("[image] [a] [0] [] [123456] [7", [], []), ("[[3]]", ["[3]"], [3]),
      ("a[99999]b", ["[99999]"], [99999]), ("no marks", [], []),
    ])
  func linkMarks(text: String, marks: [String], numbers: [Int]) {
    let found = LinkMark.marks(in: text[...])
    #expect(found.map { String(text[$0.range]) } == marks)
    #expect(found.map(\.number) == numbers)
  }

  @Test(
    "paragraphs, lists, quotes, preformatted blocks and numbered links",
    arguments: [
      (
        "<p>One</p><ul><li>a</li><li>b<ul><li>c</li></ul></li></ul><p>Two</p>",
        "One\n\n• a\n• b\n\u{A0}\u{A0}• c\n\nTwo"
      ),
      ("<ol><li>x</li><li>y</li></ol><ol><li>z</li></ol>", "1. x\n2. y\n\n1. z"),
      (
        "<p>Said:</p><blockquote><p>Quote one.</p><p>Two.</p></blockquote><p>After</p>",
        "Said:\n\n> Quote one.\n\n> Two.\n\nAfter"
      ),
      ("<blockquote>a<blockquote>b</blockquote>c</blockquote>", "> a\n\n> > b\n\n> c"),
      (
        "<p>Code:</p><pre>let x = 1\n\tf()</pre>",
        "Code:\n\nlet\u{A0}x\u{A0}=\u{A0}1\n\u{A0}\u{A0}\u{A0}\u{A0}f()"
      ),
      (
        "<p>See <a href=\"https://a.example/\">this</a> and <a href=\"/b\">that</a>.</p>",
        "See this[1] and that[2].\n\nLinks:\n[1] https://a.example/\n[2] https://e.example/b"
      ),
      ("a\u{1}b\u{2}c <b>x</b>", "abc x"),
    ])
  func content(html: String, text: String) {
    #expect(HTMLText.content(html, base: URL(string: "https://e.example/post")) == text)
  }

  @Test(
    "a table's cells stand between bars on their row's line, in content and in summaries",
    arguments: [
      (
        "<table><tr><th>Name</th><th>Value</th></tr><tr><td>alpha</td><td>1</td></tr></table>",
        "Name | Value\nalpha | 1", "Name | Value\nalpha | 1"
      ),
      // An empty cell, or one of spaces, is no cell of text: no bar for it.
      ("<tr><td>a</td><td> </td><td>&nbsp;</td><td>b</td></tr>", "a | b", "a | b"),
      // A cell of an image alone is text in content (its mark), none in a summary.
      (
        #"<tr><td><img src="p.png" alt="P"></td><td>text</td></tr>"#, "[image: P] | text",
        "text"
      ),
      // A cell whose text ends in a block puts the next on a line of its own.
      ("<tr><td><p>para</p></td><td>next</td></tr>", "para\n\nnext", "para\n\nnext"),
      ("<p>a</p><table><tr><td>x</td></tr></table><p>b</p>", "a\n\nx\n\nb", "a\n\nx\n\nb"),
    ])
  func tables(html: String, content: String, summary: String) {
    #expect(HTMLText.content(html, base: nil) == content)
    #expect(HTMLText.plain(html) == summary)
  }

  @Test("titles and summaries stay flat: no bullets or quote marks")
  func plain() {
    #expect(HTMLText.plain("<ul><li>a</li><li>b</li></ul>") == "a\nb")
    #expect(HTMLText.plain("<blockquote>q</blockquote>") == "q")
  }

  @Test("the links of a content, by number, for news open <id> <n>")
  func links() {
    let text = HTMLText.content(
      "<a href=\"https://a.example/\">a</a> <a href=\"https://b.example/\">b</a>", base: nil)
    #expect(HTMLText.links(in: text) == ["https://a.example/", "https://b.example/"])
    #expect(HTMLText.links(in: "no links here\n\nLinks:\nnot one").isEmpty)
  }
}
