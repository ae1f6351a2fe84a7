import FeedParsing
import Testing

@testable import NewsCore

@Suite("ARTICLEID")
struct ArticleIDTests {
  @Test(
    "drops the scheme and replaces every slash with a dash",
    arguments: [
      (
        "https://www.cnn.com/2020/07/20/us/portland-protester-navy-veteran-beaten/index.html",
        "www.cnn.com-2020-07-20-us-portland-protester-navy-veteran-beaten-index.html"
      ),
      ("http://example.com/a/b", "example.com-a-b"),
      ("ftp://files.example.org/x", "files.example.org-x"),
      ("svn+ssh://host/repo", "host-repo"),
      ("https://example.com/", "example.com-"),
      ("https://example.com/a/", "example.com-a-"),
      ("https://example.com/search?q=a&b=c#top", "example.com-search?q=a&b=c#top"),
      ("https://example.com/caf%C3%A9/x", "example.com-caf%C3%A9-x"),
      ("https://例え.jp/ニュース/1", "例え.jp-ニュース-1"),
      ("https://example.com/path?next=http://other/x", "example.com-path?next=http:--other-x"),
      ("example.com/a", "example.com-a"),
      ("//example.com/a", "--example.com-a"),
      ("1http://x/y", "1http:--x-y"),
      ("", ""),
      ("https://", ""),
      ("HTTPS://Example.COM/A", "Example.COM-A"),
    ])
  func derive(url: String, id: String) {
    #expect(ArticleID.derive(fromURL: url) == id)
  }

  @Test(
    "is percent-encoded as exactly one path segment",
    arguments: [
      ("www.cnn.com-2020-index.html", "www.cnn.com-2020-index.html"),
      ("a?b=c&d#e", "a%3Fb%3Dc%26d%23e"),
      ("100%", "100%25"),
      ("a/b", "a%2Fb"),
      ("café", "caf%C3%A9"),
      ("a b+c", "a%20b%2Bc"),
      ("tilde~_.", "tilde~_."),
    ])
  func pathSegment(id: String, encoded: String) {
    #expect(ArticleID.pathSegment(id) == encoded)
  }

  @Test(
    "a feed link is normalised before its id is derived",
    arguments: [
      ("HTTPS://Example.COM:443/a/B#top", "https://example.com/a/B"),
      ("http://example.com:80/x?q=1#f", "http://example.com/x?q=1"),
      ("http://example.com:8080/x", "http://example.com:8080/x"),
      ("https://example.com:80/x", "https://example.com:80/x"),
      ("http://User@Example.com/x", "http://User@example.com/x"),
      ("http://[::1]:80/x", "http://[::1]/x"),
      ("https://example.com", "https://example.com"),
      ("https://example.com?x#y", "https://example.com?x"),
      ("mailto:a@b.c", "mailto:a@b.c"),
      ("ftp://Example.com/x#y", "ftp://Example.com/x#y"),
    ])
  func normalizedLink(link: String, expected: String) {
    #expect(ArticleID.normalizedLink(link) == expected)
    #expect(ArticleID.normalizedLinkByCharacter(link) == expected)
  }

  @Test("the byte path normalises a link as the character path does")
  func normalizedLinkBytes() {
    let schemes = ["http", "HTTPS", "https", "Http", "ftp", "", "mailto:a"]
    let pieces = [
      "://", ":", "/", "//", "?", "#", "@", ":80", ":443", ":8080", "Example.COM", "a", "b.c",
      "é", "\r\n", "[::1]", "%2F", "x=1&y",
    ]
    var generator = SeededGenerator(seed: 5)
    var changed = 0
    for _ in 0..<20_000 {
      let link =
        schemes.randomElement(using: &generator)! + (Bool.random(using: &generator) ? "://" : "")
        + (0..<Int.random(in: 0...7, using: &generator)).map { _ in
          pieces.randomElement(using: &generator)!
        }.joined()
      let expected = ArticleID.normalizedLinkByCharacter(link)
      #expect(ArticleID.normalizedLink(link) == expected, "\(link.debugDescription)")
      if expected != link { changed += 1 }
    }
    // Many of the links are changed by normalising: the cases that build a new one are met.
    #expect(changed > 500)
  }
}
