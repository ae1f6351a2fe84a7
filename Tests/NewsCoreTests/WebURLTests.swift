import Foundation
import Testing

@testable import NewsCore

/// `URL.web`: the one check of every URL a user, a file or a document gives.
@Suite("web URLs: http or https with a host, scheme and host in lower case")
struct WebURLTests {
  @Test(
    "each text as a web URL, or none",
    arguments: [
      ("https://example.com/a/B?c=D#e", "https://example.com/a/B?c=D#e"),
      ("HTTPS://Example.COM/A?b=C", "https://example.com/A?b=C"),
      ("http://EXAMPLE.com:8080/feed", "http://example.com:8080/feed"),
      ("Http://example.com", "http://example.com"),
      ("http://127.0.0.1:9/feeds/1.xml", "http://127.0.0.1:9/feeds/1.xml"),
      ("ftp://example.com/a", nil), ("http://", nil), ("example.com/feed", nil),
      ("mailto:a@example.com", nil),
    ] as [(String, String?)])
  func web(text: String, expected: String?) {
    #expect(URL.web(text)?.absoluteString == expected)
  }

  @Test(
    "a feed's address in a feed scheme is the http(s) URL it stands for",
    arguments: [
      ("feed://example.com/rss", "http://example.com/rss"),
      ("FEED://Example.com/rss", "http://example.com/rss"),
      ("feed:https://example.com/rss", "https://example.com/rss"),
      ("feed://https://example.com/rss", "https://example.com/rss"),
      ("itpc://podcasts.example/show.xml", "http://podcasts.example/show.xml"),
      ("pcast://podcasts.example/show.xml", "http://podcasts.example/show.xml"),
      ("podcast://podcasts.example/show.xml", "http://podcasts.example/show.xml"),
      (" https://example.com/feed ", "https://example.com/feed"),
      ("feed:example.com/rss", nil), ("feed://", nil), ("gopher://example.com/", nil),
      ("feed:ftp://example.com/rss", nil),
    ] as [(String, String?)])
  func feed(text: String, expected: String?) {
    #expect(URL.feed(text)?.absoluteString == expected)
  }

  @Test(
    "an address without the user name and password it carries",
    arguments: [
      ("https://ann:s3cret@example.com/feed?x=1", "https://example.com/feed?x=1"),
      ("https://ann@example.com:8443/feed", "https://example.com:8443/feed"),
      ("https://example.com/feed", "https://example.com/feed"),
    ])
  func withoutCredentials(text: String, expected: String) throws {
    #expect(try #require(URL(string: text)).withoutCredentials.absoluteString == expected)
  }

  @Test("a relative link is resolved against its base first")
  func relative() {
    let base = URL(string: "https://Example.com/blog/post")
    #expect(
      URL.web("/feed.xml", relativeTo: base)?.absoluteString == "https://example.com/feed.xml")
    #expect(URL.web("next", relativeTo: base)?.absoluteString == "https://example.com/blog/next")
  }
}
