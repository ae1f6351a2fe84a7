import Foundation
import Testing

@testable import FeedParsing

/// Markup written to hurt (#42): nesting, links, selectors. What it becomes is linear in its size
/// and capped; the time limit only catches a regression that never ends (before, the selector
/// took minutes; the limit is wide, as the whole suite shares two cores under AddressSanitizer
/// in CI, and the CPU and memory bounds of full-size pages are held by Tests/Stress/hostile.sh).
@Suite("Hostile markup stays bounded", .timeLimit(.minutes(10)))
struct HostileMarkupTests {
  @Test("10,000 nested lists: the text is linear in the markup, indented six levels at most")
  func nestedLists() {
    let html = String(repeating: "<ul><li>x", count: 10_000)
    let text = HTMLText.content(html)
    // Before: each item indented once a level, 200 MB of text for 90 KB of markup.
    #expect(text.utf8.count <= 8 * html.utf8.count, "\(text.utf8.count) bytes")
    let lines: [Substring] = text.split(separator: "\n")
    let indents = lines.map { line in line.unicodeScalars.prefix { $0 == "\u{A0}" }.count }
    #expect(indents.max() == 2 * HTMLText.maximumIndent)
    #expect(text.split(separator: "\n").count == 10_000)
  }

  @Test("5,000 nested quotes are marked six levels deep at most")
  func nestedQuotes() {
    let text = HTMLText.content(String(repeating: "<blockquote>q ", count: 5_000))
    let marks = text.split(separator: "\n").map { line in
      line.utf8.count - line.replacingOccurrences(of: "> ", with: "").utf8.count
    }
    #expect(marks.max() == 2 * HTMLText.maximumQuoteDepth)
    #expect(text.utf8.count <= 20 * 5_000 * 14)
  }

  @Test("what one text becomes is cut at 1 MiB, on a character, with a mark")
  func capped() {
    let html = "<p>" + String(repeating: "mot é ", count: 400_000) + "</p>"
    let text = HTMLText.content(html)
    #expect(text.utf8.count <= HTMLText.maximumLength)
    #expect(text.utf8.count > HTMLText.maximumLength - 8)
    #expect(text.hasSuffix(HTMLText.cutMark))
    #expect(HTMLText.plain(html).hasSuffix(HTMLText.cutMark))
    // Plain text (a description that is not HTML) is capped the same way.
    let plain = HTMLText.tidy(String(repeating: "word ", count: 600_000))
    #expect(plain.utf8.count <= HTMLText.maximumLength && plain.hasSuffix(HTMLText.cutMark))
    #expect(
      FeedTextKind.text.plain(String(repeating: "x", count: 3_000_000)).utf8.count
        <= HTMLText.maximumLength)
    // Short text is never cut.
    #expect(HTMLText.bounded("short") == "short")
  }

  @Test("30,000 links are numbered once each, a link seen again keeping its number")
  func manyLinks() {
    let html = (0..<30_000).map { #"<p><a href="https://e.example/\#($0 % 20_000)">l</a></p>"# }
      .joined()
    let text = HTMLText.content(html)
    let links = HTMLText.links(in: text)
    #expect(links.count == 20_000)
    #expect(links.first == "https://e.example/0" && links.last == "https://e.example/19999")
    // The 20,001st link is the first one again: number 1.
    let marks = text.components(separatedBy: "\n\nLinks:\n")[0].split(separator: "\n")
    #expect(marks[20_000] == "l[1]")
  }

  @Test("30,000 unclosed <div><p>: the article is found, in one pass")
  func unclosedNesting() throws {
    let html = "<html><body>" + String(repeating: "<div><p>word ", count: 30_000) + "</body></html>"
    let article = try #require(ArticleExtractor.extract(html: html, url: nil))
    #expect(article.words >= 25_000)
  }

  @Test("a descendant selector on a page 200 divs deep answers without backtracking")
  func deepSelector() throws {
    let html =
      String(repeating: "<div>", count: 200) + "text" + String(repeating: "</div>", count: 200)
    let root = HTMLTreeBuilder.parse(html)
    // Before: every ancestor path tried, past 60 s.
    #expect(try CSSSelector("section div div div div div").select(in: root).isEmpty)
    #expect(try CSSSelector("div div div div div").select(in: root).count == 196)
    let deepest = try #require(root.descendants.last)
    #expect(try CSSSelector("div > div div").matches(deepest))
    #expect(try !CSSSelector("section div").matches(deepest))
  }

  @Test(
    "a rule's size is bounded, and a rule selecting every element is refused",
    arguments: [
      (Array(repeating: "p", count: 33).joined(separator: ", "), "more than 32 alternatives"),
      (Array(repeating: "div", count: 17).joined(separator: " "), "more than 16 elements"),
      (String(repeating: "d", count: 1_025), "longer than 1024 characters"),
      ("*", "'*' selects every element"), ("article *", "'*' selects every element"),
    ])
  func boundedRules(selector: String, detail: String) {
    #expect {
      _ = try CSSSelector(selector)
    } throws: { error in
      (error as? CSSSelector.Failure)?.detail.contains(detail) == true
    }
  }
}
