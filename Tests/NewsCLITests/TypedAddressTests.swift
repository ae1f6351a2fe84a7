import Foundation
import TestSupport
import Testing

@testable import NewsCLI

/// `news sources add example.com`: an address typed without its scheme, as a browser takes it.
@Suite("sources add: an address without a scheme is https://")
struct TypedAddressTests {
  @Test(
    "a host with a dot, or localhost, gets https://; files, paths and other schemes do not",
    arguments: [
      ("example.com", "https://example.com"),
      ("lwn.net/headlines/rss", "https://lwn.net/headlines/rss"),
      ("localhost:8080/feed?x=1", "https://localhost:8080/feed?x=1"),
      ("127.0.0.1:8766/feed.xml", "https://127.0.0.1:8766/feed.xml"),
      ("feed.xml", nil),
      ("subscriptions.opml", nil),
      ("/etc/passwd", nil),
      ("./feed", nil),
      ("file:///etc/passwd", nil),
      ("intranet/feed", nil),
      ("", nil),
    ] as [(String, String?)])
  func typed(text: String, url: String?) {
    #expect(SourcesActions.typedAddress(text)?.absoluteString == url)
  }

  @Test("a name that is not an address is refused as before, naming it")
  func refused() async throws {
    let harness = try Harness()
    let refused = await harness.run(["sources", "add", "feed.xml"])
    #expect(refused.code == .usage)
    #expect(refused.err.contains("'feed.xml' is not an http:// or https:// URL"), "\(refused.err)")
  }
}
