import FeedParsing
import Foundation
import NewsCore
import Testing

@testable import NewsServer

/// The Google Reader API as the apps call it, answered from a store of five articles.
@Suite("news serve: the Google Reader API")
struct GoogleReaderServeTests {
  @Test("NetNewsWire, Reeder and ReadKit: tags, subscriptions, unread and starred ids, contents")
  func readerSequence() throws {
    let served = try ServedStore()
    let tags = try served.reader("tag/list?output=json")["tags"] as? [[String: Any]] ?? []
    let labels = tags.compactMap { $0["id"] as? String }
    #expect(labels.contains("user/-/state/com.google/starred"))
    #expect(labels.contains("user/-/label/news") && labels.contains("user/-/label/urgent"))
    #expect(tags.first { $0["id"] as? String == "user/-/label/news" }?["unread_count"] as? Int == 3)
    let subscriptions =
      try served.reader("subscription/list?output=json")["subscriptions"] as? [[String: Any]] ?? []
    #expect(subscriptions.compactMap { $0["id"] as? String } == ["feed/one", "feed/two"])
    let one = try #require(subscriptions.first)
    #expect(one["url"] as? String == "https://one.example/feed.xml")
    // The site the apps link the feed to (and take its icon from); without one, the feed.
    #expect(one["htmlUrl"] as? String == "https://one.example/")
    #expect(subscriptions.last?["htmlUrl"] as? String == "https://ann@two.example/feed.xml")
    // A feed behind Basic authentication: its user shown, never its password.
    #expect(subscriptions.last?["url"] as? String == "https://ann@two.example/feed.xml")
    // The feed's title (config.json's, its escape sequence gone); a source without one, its name.
    #expect(subscriptions.compactMap { $0["title"] as? String } == ["One News", "two"])
    #expect((one["categories"] as? [[String: Any]])?.first?["label"] as? String == "news")

    let unread = try served.ids(
      "s=user/-/state/com.google/reading-list&xt=user/-/state/com.google/read&n=1000")
    #expect(unread.count == 5)
    #expect(try served.ids("s=user/-/state/com.google/starred&n=1000").isEmpty)
    // Long ids and decimal ids, both; the order asked is the order answered.
    let long = String(format: "tag:google.com,2005:reader/item/%016llx", unread[0])
    let answer = try served.ask(
      "/reader/api/0/stream/items/contents?output=json",
      form: [("i", long), ("i", String(unread[1]))])
    let items = try answer.json()["items"] as? [[String: Any]] ?? []
    #expect(items.compactMap { $0["title"] as? String } == ["Beta", "Alpha"])
    let first = try #require(items.first)
    #expect(first["id"] as? String == long)
    #expect(
      (first["canonical"] as? [[String: Any]])?.first?["href"] as? String
        == "https://two.example/5")
    #expect((first["origin"] as? [String: Any])?["streamId"] as? String == "feed/two")
    #expect(
      (items.last?["origin"] as? [String: Any])?["htmlUrl"] as? String
        == "https://ann@two.example/feed.xml")
    #expect(first["published"] as? Int == Int(ServedStore.start) + 300)
    #expect((first["summary"] as? [String: Any])?["content"] as? String == "<p>About Beta</p>")
  }

  @Test("Read You asks the read ids: only read ones come back, never the unread")
  func readIDs() throws {
    let served = try ServedStore()
    #expect(try served.ids("s=user/-/state/com.google/read&n=1000").isEmpty)
    let alpha = try served.number(of: "Alpha")
    let token = try served.ask("/reader/api/0/token").text.trimmingCharacters(in: .newlines)
    let marked = try served.ask(
      "/reader/api/0/edit-tag",
      form: [("i", String(alpha)), ("a", "user/-/state/com.google/read"), ("T", token)])
    #expect(marked.status == 200 && marked.text == "OK")
    #expect(try served.ids("s=user/-/state/com.google/read&n=1000") == [alpha])
    let unread = try served.ids(
      "s=user/-/state/com.google/reading-list&xt=user/-/state/com.google/read&n=1000")
    #expect(unread.count == 4 && !unread.contains(alpha))
  }

  @Test("pages follow their continuation without a gap or a repeat, newest or oldest first")
  func paging() throws {
    let served = try ServedStore()
    for order in ["", "&r=o"] {
      var seen: [String] = []
      var continuation: String?
      for _ in 0..<5 {
        let answer = try served.reader(
          "stream/contents/user/-/state/com.google/reading-list?n=2" + order
            + (continuation.map { "&c=" + $0 } ?? ""))
        seen += (answer["items"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        continuation = answer["continuation"] as? String
        if continuation == nil { break }
      }
      let newestFirst = ["Beta", "Alpha", "Third", "Second urgent", "First"]
      #expect(seen == (order.isEmpty ? newestFirst : newestFirst.reversed()))
    }
    // Dates before 1970 page as well as any.
    try served.keep([("two", "Ancient", -30_000_000), ("two", "Older still", -31_000_000)])
    var seen: [Int64] = []
    var continuation: String?
    for _ in 0..<10 {
      let answer = try served.reader(
        "stream/items/ids?s=feed/two&n=1" + (continuation.map { "&c=" + $0 } ?? ""))
      seen += (answer["itemRefs"] as? [[String: Any]] ?? []).compactMap {
        ($0["id"] as? String).flatMap { Int64($0) }
      }
      continuation = answer["continuation"] as? String
      if continuation == nil { break }
    }
    #expect(seen.count == 4 && Set(seen).count == 4)
    let bad = try served.ask("/reader/api/0/stream/items/ids?s=user/-/state/com.google/read&c=x")
    #expect(bad.status == 400)
  }

  @Test(
    "streams: a feed, a tag, a saved search, ot and nt",
    arguments: [
      ("feed/two", "", ["Beta", "Alpha"]),
      ("user/-/label/news", "", ["Third", "Second urgent", "First"]),
      ("user/-/label/urgent", "", ["Second urgent"]),
      (
        "user/1234/state/com.google/reading-list", "&ot=\(Int(ServedStore.start) + 180)",
        ["Beta", "Alpha", "Third"]
      ),
      (
        "user/-/state/com.google/reading-list", "&nt=\(Int(ServedStore.start) + 180)",
        ["Second urgent", "First"]
      ),
    ])
  func streams(stream: String, filter: String, titles: [String]) throws {
    let served = try ServedStore()
    let answer = try served.reader("stream/contents/" + stream + "?n=100" + filter)
    #expect(
      (answer["items"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String } == titles)
  }

  @Test("unread counts: each feed, each label and the reading list")
  func unreadCounts() throws {
    let served = try ServedStore()
    let counts = try served.reader("unread-count?output=json")["unreadcounts"] as? [[String: Any]]
    var byID: [String: Int] = [:]
    for count in counts ?? [] {
      if let id = count["id"] as? String { byID[id] = count["count"] as? Int }
    }
    #expect(byID["feed/one"] == 3 && byID["feed/two"] == 2)
    #expect(byID["user/-/label/news"] == 3 && byID["user/-/label/urgent"] == 1)
    #expect(byID["user/-/state/com.google/reading-list"] == 5)
  }

  @Test("edit-tag stars and unstars; mark-all-as-read reads a stream up to its time")
  func edits() throws {
    let served = try ServedStore()
    let token = try served.ask("/reader/api/0/token").text.trimmingCharacters(in: .newlines)
    let first = try served.number(of: "First")
    let star = try served.ask(
      "/reader/api/0/edit-tag",
      form: [("i", String(first)), ("a", "user/-/state/com.google/starred"), ("T", token)])
    #expect(star.status == 200)
    #expect(try served.ids("s=user/-/state/com.google/starred") == [first])
    #expect(try served.services.articleStore().bookmarks().map(\.title) == ["First"])
    _ = try served.ask(
      "/reader/api/0/edit-tag",
      form: [("i", String(first)), ("r", "user/-/state/com.google/starred"), ("T", token)])
    #expect(try served.ids("s=user/-/state/com.google/starred").isEmpty)

    let until = Int64(ServedStore.start + 120) * 1_000_000
    let all = try served.ask(
      "/reader/api/0/mark-all-as-read",
      form: [("s", "feed/one"), ("ts", String(until)), ("T", token)])
    #expect(all.status == 200)
    let read = try served.ids("s=user/-/state/com.google/read&n=100")
    #expect(Set(read) == [first, try served.number(of: "Second urgent")])
  }

  @Test("ids that are not numbers are refused; ids of no article are skipped and counted")
  func badIDs() throws {
    let served = try ServedStore()
    let token = try served.ask("/reader/api/0/token").text.trimmingCharacters(in: .newlines)
    let letters = try served.ask(
      "/reader/api/0/edit-tag",
      form: [("i", "abc"), ("a", "user/-/state/com.google/read"), ("T", token)])
    #expect(letters.status == 400)
    let absent = try served.ask(
      "/reader/api/0/edit-tag",
      form: [
        ("i", "999999"), ("i", String(try served.number(of: "Beta"))),
        ("a", "user/-/state/com.google/read"), ("T", token),
      ])
    #expect(absent.status == 200 && absent.note == "1 id not found")
    #expect(try served.ids("s=user/-/state/com.google/read").count == 1)
    #expect(try served.ask("/reader/api/0/nothing-here").status == 404)
    #expect(try served.ask("/reader/api/0/stream/contents/nowhere/x").status == 400)
    // A change is a POST.
    #expect(try served.ask("/reader/api/0/edit-tag?i=1&a=x&T=\(token)").status == 405)
  }

  @Test(
    "the store's text is served as HTML: paragraphs, line breaks, markup characters escaped",
    arguments: [
      ("one line", "<p>one line</p>"),
      ("first\n\nsecond\nline", "<p>first</p><p>second<br>line</p>"),
      ("a < b && c > d", "<p>a &lt; b &amp;&amp; c &gt; d</p>"),
      ("<script>x</script>", "<p>&lt;script&gt;x&lt;/script&gt;</p>"),
      ("", ""),
      // The links the text numbers are links to tap again: each mark (the list then says
      // nothing more), and the listed addresses when one has no mark left in the text.
      (
        "See this[1] and [2] and that[2] [3].\n\nLinks:\n[1] https://a.example/?x=1&y=2\n[2] http://b.example/",
        #"<p>See this<a href="https://a.example/?x=1&amp;y=2">[1]</a> and <a href="http://b.example/">[2]</a> and that<a href="http://b.example/">[2]</a> [3].</p>"#
      ),
      (
        "See this[1].\n\nLinks:\n[1] https://a.example/\n[2] http://b.example/",
        #"<p>See this<a href="https://a.example/">[1]</a>.</p>"#
          + #"<p>Links:<br>[1] <a href="https://a.example/">https://a.example/</a><br>[2] <a href="http://b.example/">http://b.example/</a></p>"#
      ),
      (
        "Bad[1].\n\nLinks:\n[1] javascript:alert(1)",
        "<p>Bad[1].</p><p>Links:<br>[1] javascript:alert(1)</p>"
      ),
    ])
  func html(text: String, html: String) {
    #expect(ReaderItem.html(Article(id: "x", provider: "p", title: "t", content: text)) == html)
  }

  @Test("paragraphs and escapes made by bytes are those Foundation's splitting and trimming made")
  func paragraphsByBytes() {
    let pieces = [
      "a", " ", "\n", "\n\n", "\t", "\u{00A0}", "\u{2028}", "\u{3000}", "<", ">", "&", "\u{1}",
      "é", "日", "👍", "\u{7F}",
    ]
    // Every string of up to four pieces: 69,905 of them.
    var split = 0
    for length in 0...4 {
      for number in 0..<Int(pow(Double(pieces.count), Double(length))) {
        var rest = number
        let text = (0..<length).map { _ in
          defer { rest /= pieces.count }
          return pieces[rest % pieces.count]
        }.joined()
        check(text)
      }
    }
    func check(_ text: String) {
      let expected = text.components(separatedBy: "\n\n")
        .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
      let paragraphs = ReaderItem.paragraphs(text[...])
      #expect(paragraphs.map(String.init) == expected, "\(text.debugDescription)")
      if paragraphs.count > 1 { split += 1 }
      for paragraph in paragraphs {
        #expect(
          ReaderItem.escapedWithBreaks(paragraph)
            == XMLEscaping.escaped(String(paragraph), quotes: false).replacingOccurrences(
              of: "\n", with: "<br>"))
      }
    }
    #expect(split > 2_000)
  }

  @Test(
    "news reading its own news serve gets the text it served: marks and links, no second list",
    arguments: [
      "See this[1] and that[2].\n\nLinks:\n[1] https://a.example/\n[2] http://b.example/x",
      "One[1].\n\nTwo[2], one again[1].\n\nLinks:\n[1] https://a.example/\n[2] https://b.example/",
      "Plain words.",
    ])
  func roundTrip(text: String) {
    let served = ReaderItem.html(Article(id: "x", provider: "p", title: "t", content: text))
    #expect(HTMLText.content(served) == text, "\(served)")
  }
}
