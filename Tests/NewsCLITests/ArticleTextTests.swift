import FeedParsing
import Foundation
import NewsCore
import TestSupport
import Testing

@Suite("an item's HTML content in show, and its links by number in open")
struct ArticleTextTests {
  let harness: Harness

  init() throws {
    harness = try Harness()
    let rss = """
      <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel>
      <title>t</title><item><title>Post</title><link>https://e.example/post</link>
      <content:encoded><![CDATA[<p>Intro with <a href="https://a.example/">a link</a>.</p>
      <ul><li>one</li><li>two</li></ul><blockquote><p>Quoted</p></blockquote>
      <pre>x  = 1</pre><p>And <a href="/more">more</a>.</p>]]></content:encoded>
      </item></channel></rss>
      """
    harness.server.route(
      "/rss.xml",
      LoopbackServer.Response(
        headers: ["Content-Type": "application/rss+xml"], body: Data(rss.utf8)))
  }

  @Test("show renders paragraphs, lists, quotes, preformatted text and numbered links")
  func show() async throws {
    let base = harness.server.baseURL.absoluteString
    #expect(
      await harness.run(["sources", "add", base + "/rss.xml", "--name", "blog"]).code == .success)
    #expect(await harness.run(["feed", "--source", "blog"]).code == .success)
    let shown = await harness.run(["show", "1", "--offline"])
    #expect(shown.code == .success)
    for expected in [
      "Intro with a link[1].", "• one\n", "• two\n", "> Quoted", "x\u{A0}\u{A0}=\u{A0}1",
      // A relative link is resolved against the feed's address.
      "And more[2].", "[1] https://a.example/", "[2] \(base)/more",
    ] {
      #expect(shown.out.contains(expected), "\(expected.debugDescription) in \(shown.out)")
    }

    let first = await harness.run(["open", "1", "1"])
    #expect(first.code == .success)
    #expect(first.out == "https://a.example/\n")
    let second = await harness.run(["open", "1", "2"])
    #expect(second.out == "\(base)/more\n")
    let missing = await harness.run(["open", "1", "3"])
    #expect(missing.code == .dataError)
    #expect(missing.err.contains("has no link 3; its text lists 2 (news show lists them)"))
    let zero = await harness.run(["open", "1", "0"])
    #expect(zero.code == .usage)
  }

  @Test("open of an episode without a link says what else opens it: its text's links, play")
  func openEpisode() async throws {
    let rss = """
      <rss version="2.0"><channel><title>Pod</title>
      <item><title>Ep</title><guid isPermaLink="false">ep-1</guid>
      <description><![CDATA[<p>About <a href="https://swift.org/">Swift</a>.</p>]]></description>
      <enclosure url="https://cdn.example/1.mp3" type="audio/mpeg" length="10"/></item>
      </channel></rss>
      """
    harness.server.route(
      "/pod.xml",
      LoopbackServer.Response(
        headers: ["Content-Type": "application/rss+xml"], body: Data(rss.utf8)))
    let base = harness.server.baseURL.absoluteString
    await harness.succeed(["sources", "add", base + "/pod.xml", "--name", "pod"])
    await harness.succeed(["feed", "--source", "pod"])
    let id = try #require(
      (try await harness.run(["feed", "--source", "pod", "--json"]).json()["items"]
        as? [[String: Any]])?.first?["id"] as? String)
    let opened = await harness.run(["open", "1"])
    #expect(opened.code == .dataError)
    #expect(
      opened.err
        == "news: article \(id) has no http(s) link to open; its text lists 1: news open \(id) 1;"
        + " news play \(id) plays its audio or video\n")
  }
}
