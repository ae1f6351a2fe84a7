import Foundation
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

@Suite("Subscriptions: config.json edits, OPML and newsboat files, feed discovery")
struct SubscriptionTests {
  static let entry = #"{"name":"new","url":"https://example.com/feed"}"#

  @Test(
    "appending keeps the rest of the file as written",
    arguments: [
      ("", "{\n  \"sources\": [\n    \(entry)\n  ]\n}\n"),
      ("{}", "{\n  \"sources\": [\n    \(entry)\n  ]\n}"),
      (
        "{\"x\": 1, \"y\": [1,2]}",
        "{\n  \"sources\": [\n    \(entry)\n  ],\"x\": 1, \"y\": [1,2]}"
      ),
      ("{\"sources\": []}", "{\"sources\": [\n  \(entry)\n]}"),
      (
        "{\n  \"sources\": [\n    {\"name\": \"d\", \"url\": \"https://d.example/\"}\n  ],\n  \"z\": \"}\"\n}\n",
        "{\n  \"sources\": [\n    {\"name\": \"d\", \"url\": \"https://d.example/\"},\n    \(entry)\n  ],\n  \"z\": \"}\"\n}\n"
      ),
      (
        "{\"sources\":[{\"name\":\"a\",\"ttl\":5},{\"name\":\"d\",\"url\":\"https://d/\\\"]\"}]}",
        "{\"sources\":[{\"name\":\"a\",\"ttl\":5},{\"name\":\"d\",\"url\":\"https://d/\\\"]\"},\(entry)]}"
      ),
    ])
  func append(before: String, after: String) throws {
    var editor = ConfigFileEditor(Data(before.utf8))
    try editor.append(Self.entry)
    #expect(String(decoding: editor.bytes, as: UTF8.self) == after)
    #expect(try editor.names().last == "new")
  }

  @Test(
    "removing takes out one entry and its separator",
    arguments: [
      ("d", "{\"sources\": [\n  {\"name\": \"e\"},\n  {\"name\": \"f\"}\n], \"k\": true}"),
      ("e", "{\"sources\": [\n  {\"name\": \"d\"},\n  {\"name\": \"f\"}\n], \"k\": true}"),
      ("f", "{\"sources\": [\n  {\"name\": \"d\"},\n  {\"name\": \"e\"}\n], \"k\": true}"),
    ])
  func remove(name: String, after: String) throws {
    var editor = ConfigFileEditor(
      Data(
        "{\"sources\": [\n  {\"name\": \"d\"},\n  {\"name\": \"e\"},\n  {\"name\": \"f\"}\n], \"k\": true}"
          .utf8))
    #expect(try editor.remove(named: name))
    #expect(String(decoding: editor.bytes, as: UTF8.self) == after)
    #expect(try !editor.remove(named: "nobody"))
  }

  @Test("removing the only entry leaves an empty list; a broken file is refused")
  func removeOnly() throws {
    var editor = ConfigFileEditor(Data(#"{"sources": [ {"name": "d"} ]}"#.utf8))
    #expect(try editor.remove(named: "d"))
    #expect(String(decoding: editor.bytes, as: UTF8.self) == #"{"sources": []}"#)
    var broken = ConfigFileEditor(Data(#"["not", "an object"]"#.utf8))
    #expect(throws: ConfigFileEditor.Failure.self) { try broken.append(Self.entry) }
    var cut = ConfigFileEditor(Data(#"{"sources": [{"name": "#.utf8))
    #expect(throws: ConfigFileEditor.Failure.self) { try cut.append(Self.entry) }
  }

  /// The fuzzer's find: a `sources` said twice is read as its last (the reader's rule), so an
  /// edit of the first changed nothing that was read.
  @Test("a key said twice: the edit changes the last one, the one that is read")
  func duplicateSources() throws {
    let text = "{\n  \"sources\": [\n      ],\n\n  \"sources\": [\n      ],\n\n}\n"
    let original = try FeedConfigFile.parse(Data(text.utf8), path: "config.json")
    var editor = ConfigFileEditor(Data(text.utf8))
    try editor.append(Self.entry)
    let edited = try FeedConfigFile.parse(Data(editor.bytes), path: "config.json")
    #expect(edited.sources.map(\.name) == original.sources.map(\.name) + ["new"])
    #expect(try editor.remove(named: "new"))
    let undone = try FeedConfigFile.parse(Data(editor.bytes), path: "config.json")
    #expect(undone.sources.map(\.name) == original.sources.map(\.name))
    // The first list, which is not read, is as it was.
    #expect(
      String(decoding: editor.bytes, as: UTF8.self).hasPrefix("{\n  \"sources\": [\n      ],"))
  }

  /// The fuzzer's find: `{` and `}` each followed by three NUL bytes is UTF-32 JSON (`{}`), which
  /// Foundation decodes; edited as UTF-8 text it became a file that no longer decoded.
  @Test("a config.json that is not UTF-8 (UTF-16 or UTF-32) is refused, not edited into garbage")
  func notUTF8() throws {
    let utf32 = Data([0x7B, 0, 0, 0, 0x7D, 0, 0, 0, 0, 0x7D, 0x7D])
    _ = try FeedConfigFile.parse(utf32, path: "config.json")
    var editor = ConfigFileEditor(utf32)
    #expect(
      throws: ConfigFileEditor.Failure(
        detail: "the file is not UTF-8 text (save it as UTF-8 for news to edit it)")
    ) {
      try editor.append(Self.entry)
    }
    #expect(editor.bytes == [UInt8](utf32))
    var utf16 = ConfigFileEditor(#"{"sources": []}"#.data(using: .utf16LittleEndian))
    #expect(
      throws: ConfigFileEditor.Failure(
        detail: "the file is not UTF-8 text (save it as UTF-8 for news to edit it)")
    ) {
      try utf16.add("k", value: "1", toObject: "hooks")
    }
  }

  @Test("OPML (newsboat's sample): every feed, nested folders become tags")
  func opml() throws {
    let (subscriptions, skipped) = try SubscriptionFile.parse(Fixtures.data("feeds/example.opml"))
    #expect(skipped.isEmpty)
    #expect(subscriptions.count == 7)
    #expect(subscriptions[0].url.absoluteString == "https://example.com/feed.xml")
    #expect(subscriptions[0].title == "example.com website")
    #expect(subscriptions[0].tags == [])
    let mike = try #require(subscriptions.first { $0.title == "Notes by Mike" })
    #expect(mike.tags == ["Blogs", "friends"])
    #expect(subscriptions.last?.tags == ["eloquent"])
    #expect(
      subscriptions.last?.url.absoluteString
        == "https://fred.example.com/writing/index.php?type=rss")
  }

  @Test("newsboat's urls file: tags, a ~title, comments; its own query feeds are skipped")
  func newsboatURLs() throws {
    let text = """
      # my feeds
      https://example.com/feed.xml tech "~Example Feed" "long tag" "!hidden" "~Another"

      https://b.example/rss
      "query:Unread:unread = \\"yes\\""
      """
    let (subscriptions, skipped) = try SubscriptionFile.parse(Data(text.utf8))
    #expect(
      subscriptions.map(\.url.absoluteString) == [
        "https://example.com/feed.xml", "https://b.example/rss",
      ])
    #expect(subscriptions[0].title == "Example Feed")
    #expect(subscriptions[0].tags == ["tech", "long tag"])
    #expect(skipped == ["line 5: query feeds are newsboat's own"])
  }

  @Test(
    "a newsboat line's comment: a word starting with # ends the line; a # inside a word or quotes stays",
    arguments: [
      ("https://a.example/feed tech # why I read it", ["https://a.example/feed", "tech"]),
      ("https://a.example/feed#top tech#1", ["https://a.example/feed#top", "tech#1"]),
      (
        ##"https://a.example/feed "# not a comment" x"##,
        ["https://a.example/feed", "# not a comment", "x"]
      ),
      ("reload-time 30\t#\thalf an hour", ["reload-time", "30"]),
      ("# all of it", []),
    ])
  func newsboatComments(line: String, words: [String]) throws {
    #expect(try SubscriptionFile.newsboatWords(line, line: 1) == words)
  }

  @Test(
    "a newsboat line's words read as newsboat reads them: the first ~ titles, any ! hides, neither tags",
    arguments: [
      (["tech", "~First", "~Second"], "First", ["tech"], false),
      (["!"], nil, [], true),
      (["tech", "!hidden", "linux"], nil, ["tech", "linux"], true),
      (["~", "a b"], "", ["a b"], false),
    ] as [([String], String?, [String], Bool)])
  func newsboatAttributes(words: [String], title: String?, tags: [String], hidden: Bool) {
    let read = SubscriptionFile.NewsboatAttributes(words)
    #expect(read.title == title)
    #expect(read.tags == tags)
    #expect(read.hidden == hidden)
  }

  @Test(
    "a bad file names the line or the element",
    arguments: [
      (
        "ftp://x.example/feed\n# none of it a feed\nnope\n",
        "line 1: 'ftp://x.example/feed' is not an http(s) URL"
      ),
      ("https://ok.example/ \"open tag\n", "line 1: a quote is not closed"),
      (
        "<opml><body>\n<outline xmlUrl=\"javascript:alert(1)\"/></body></opml>",
        "line 2: <outline xmlUrl=\"javascript:alert(1)\"> is not an http(s) URL"
      ),
      ("<html><body></body></html>", "not OPML: the root element is <html>, not <opml>"),
      (
        "<opml><body>\n<outline xmlUrl=\"https://a/\">\n</body>",
        "not well-formed XML (line 3): <opml> is not closed"
      ),
    ])
  func badFiles(text: String, detail: String) {
    #expect(throws: SubscriptionFile.Failure(detail: detail)) {
      try SubscriptionFile.parse(Data(text.utf8))
    }
  }

  @Test(
    "a feed given where a list of feeds is asked for is said to be one",
    arguments: [
      (#"<?xml version="1.0"?><rss version="2.0"><channel/></rss>"#, "rss"),
      (#"<feed xmlns="http://www.w3.org/2005/Atom"/>"#, "feed"),
      ("<rdf:RDF><channel/></rdf:RDF>", "rdf:rdf"),
    ])
  func feedGiven(text: String, root: String) {
    let failure = SubscriptionFile.Failure(
      detail: "it is a feed (<\(root)>), not a list of feeds", isFeed: true)
    #expect(throws: failure) { try SubscriptionFile.parse(Data(text.utf8)) }
    let atAddress = SubscriptionError.importing("https://e.example/feed.xml", failure)
    #expect(atAddress.exitCode == .dataError)
    #expect(atAddress.advice == .subscribe("https://e.example/feed.xml"))
    #expect(SubscriptionError.importing("feed.xml", failure).advice == nil, "a file: no address")
  }

  @Test("OPML 2.0's category attribute: tags, and a slash-delimited path as one, after folders")
  func categories() throws {
    let parsed = try SubscriptionFile.parse(
      Data(
        """
        <opml version="2.0"><body><outline text="Folder">
        <outline xmlUrl="https://a.example/f" category="tech, /Boston/Weather/,,Folder"/>
        </outline></body></opml>
        """.utf8))
    #expect(parsed.subscriptions.first?.tags == ["Folder", "tech", "Boston/Weather"])
  }

  @Test("a line or outline that is no feed's URL is skipped, said; feed:// is read as http://")
  func notURLs() throws {
    let urls = try SubscriptionFile.parse(
      Data("https://ok.example/\nftp://x.example/feed\nfeed://b.example/rss\n".utf8))
    #expect(
      urls.subscriptions.map(\.url.absoluteString) == [
        "https://ok.example/", "http://b.example/rss",
      ])
    #expect(urls.skipped == ["line 2: 'ftp://x.example/feed' is not an http(s) URL"])
    let opml = try SubscriptionFile.parse(
      Data(
        """
        <opml><body><outline text="T">
        <outline xmlUrl="javascript:alert(1)"/>
        <outline xmlUrl="feed:https://a.example/f"/>
        </outline></body></opml>
        """.utf8))
    #expect(opml.subscriptions.map(\.url.absoluteString) == ["https://a.example/f"])
    #expect(opml.subscriptions.first?.tags == ["T"], "the folder still holds after a skipped one")
    #expect(
      opml.skipped == [#"line 2: <outline xmlUrl="javascript:alert(1)"> is not an http(s) URL"#])
  }

  @Test("an entity an OPML file declares is never expanded, nor anything external loaded")
  func opmlEntities() throws {
    let text = """
      <?xml version="1.0"?><!DOCTYPE opml [<!ENTITY x SYSTEM "file:///etc/passwd">]>
      <opml><body><outline text="&x;" xmlUrl="https://a.example/feed"/></body></opml>
      """
    let (subscriptions, _) = try SubscriptionFile.parse(Data(text.utf8))
    #expect(subscriptions.map(\.title) == ["&x;"])
  }

  @Test("feed discovery: alternate feed links in order, resolved against the page or <base>")
  func discovery() {
    let page = """
      <html><head>
      <link rel="stylesheet" href="/style.css">
      <link rel="alternate" type="text/html" href="/other">
      <LINK REL="alternate" TYPE="application/rss+xml" HREF="/feed.xml" title="RSS">
      <link type='application/atom+xml' rel='alternate' href='atom.xml'/>
      <link rel="alternate" type="application/rss+xml" href="/feed.xml">
      <link rel="alternate" type="application/feed+json" href="javascript:alert(1)">
      </head></html>
      """
    let url = URL(string: "https://example.com/blog/post.html")!
    #expect(
      FeedDiscovery.announced(in: Data(page.utf8), url: url).map(\.url.absoluteString) == [
        "https://example.com/feed.xml", "https://example.com/blog/atom.xml",
      ])
    let based =
      #"<base href="https://cdn.example/x/"><link rel="alternate" type="application/atom+xml" href="a.xml">"#
    #expect(
      FeedDiscovery.announced(in: Data(based.utf8), url: url).map(\.url.absoluteString) == [
        "https://cdn.example/x/a.xml"
      ])
  }

  @Test(
    "names from titles: folded, lower case, dashes, at most 32 characters",
    arguments: [
      ("Hacker News", "hacker-news"), ("  Le Monde.fr : À la une ", "le-monde-fr-a-la-une"),
      ("日本語", ""),
      ("A very long title that goes on and on forever", "a-very-long-title-that-goes-on-a"),
    ])
  func slug(title: String, expected: String) {
    #expect(SubscriptionService.slug(title) == expected)
  }

  @Test("OPML export escapes names and URLs, and reads back as the same feeds")
  func exportRoundTrip() throws {
    var source = FeedSource(
      name: "x", url: URL(string: "https://e.example/feed?a=1&b=2")!, ttl: .seconds(60),
      adapter: SyndicationAdapter())
    source.tags = ["tech", "<news>"]
    source.site = URL(string: "https://e.example/?a&b")
    var untagged = source
    untagged.site = nil
    untagged.url = URL(string: "https://u.example/feed")!
    untagged.tags = []
    var second = untagged
    second.url = URL(string: "https://s.example/feed")!
    second.tags = ["tech"]
    let text = OPMLExport.document([source, untagged, second], now: Date(timeIntervalSince1970: 0))
    #expect(
      text.contains(
        "xmlUrl=\"https://e.example/feed?a=1&amp;b=2\" htmlUrl=\"https://e.example/?a&amp;b\" "
          + "category=\"tech,&lt;news&gt;\""))
    #expect(text.contains("<dateCreated>Thu, 01 Jan 1970 00:00:00 GMT</dateCreated>"))
    // Each feed in the folder of its first tag, as readers that know no `category` file them.
    #expect(
      text.contains(
        """
            <outline type="rss" text="x" title="x" xmlUrl="https://u.example/feed"/>
            <outline text="tech" title="tech">
              <outline type="rss" text="x" title="x" xmlUrl="https://e.example/feed?a=1&amp;b=2" htmlUrl="https://e.example/?a&amp;b" category="tech,&lt;news&gt;"/>
              <outline type="rss" text="x" title="x" xmlUrl="https://s.example/feed" category="tech"/>
            </outline>

        """), "\(text)")
    let (subscriptions, _) = try SubscriptionFile.parse(Data(text.utf8))
    #expect(subscriptions.map(\.url) == [untagged.url, source.url, second.url])
    #expect(subscriptions[0].title == "x")
    #expect(subscriptions.map(\.tags) == [[], ["tech", "<news>"], ["tech"]])
    #expect(subscriptions.map(\.site) == [nil, source.site, nil])
  }

  @Test(
    "a member added to a top-level object: the file, the object or the key made; one there kept",
    arguments: [
      ("", true, #"{"hooks": {"newItem": "x"}}"#),
      (#"{"sources": []}"#, true, #"{"hooks": {"newItem": "x"}, "sources": []}"#),
      ("{}", true, #"{"hooks": {"newItem": "x"}}"#),
      (#"{"hooks": {}}"#, true, #"{"hooks": {"newItem": "x"}}"#),
      (#"{"hooks": {"afterSync": "y"}}"#, true, #"{"hooks": {"afterSync": "y", "newItem": "x"}}"#),
      (#"{"hooks": {"newItem": "old"}}"#, false, #"{"hooks": {"newItem": "old"}}"#),
    ])
  func addToObject(before: String, added: Bool, after: String) throws {
    var editor = ConfigFileEditor(Data(before.utf8))
    #expect(try editor.add("newItem", value: #""x""#, toObject: "hooks") == added)
    let written = try ConfigNode.parse(Data(editor.bytes), file: "config.json")
    let expected = try ConfigNode.parse(Data(after.utf8), file: "config.json")
    #expect(written.value == expected.value, "\(String(decoding: editor.bytes, as: UTF8.self))")
    var broken = ConfigFileEditor(Data(#"{"hooks": []}"#.utf8))
    #expect(throws: ConfigFileEditor.Failure.self) {
      try broken.add("newItem", value: "1", toObject: "hooks")
    }
  }
  @Test("a member added at a path makes the objects on the way; one there already stays")
  func addAtPath() throws {
    var editor = ConfigFileEditor(Data(#"{"keys": {"list": {"j": "down"}}}"#.utf8))
    #expect(try editor.add("k", value: #""up""#, at: ["keys", "list"]))
    #expect(try editor.add("x", value: "null", at: ["keys", "home"]))
    #expect(try editor.add("j", value: #""up""#, at: ["keys", "list"]) == false)
    #expect(try editor.add("run", value: "1", at: ["commands", "a"]))
    let written = try ConfigNode.parse(Data(editor.bytes), file: "config.json")
    let expected = try ConfigNode.parse(
      Data(
        #"{"commands": {"a": {"run": 1}}, "keys": {"list": {"j": "down", "k": "up"}, "home": {"x": null}}}"#
          .utf8), file: "config.json")
    #expect(written.value == expected.value, "\(String(decoding: editor.bytes, as: UTF8.self))")
    var broken = ConfigFileEditor(Data(#"{"keys": {"list": 3}}"#.utf8))
    #expect(throws: ConfigFileEditor.Failure(detail: "\"keys.list\" is not an object")) {
      try broken.add("j", value: "1", at: ["keys", "list"])
    }
  }

}
