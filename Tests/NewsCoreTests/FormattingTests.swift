import Foundation
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

@Suite("Formatting")
struct FormattingTests {
  @Test(
    "terminal escape sequences and control characters are stripped",
    arguments: [
      ("plain", "plain"),
      ("\u{1B}[31mred\u{1B}[0m", "red"),
      ("\u{1B}]0;title\u{07}after", "after"),
      ("\u{1B}]8;;http://evil\u{1B}\\link\u{1B}]8;;\u{1B}\\", "link"),
      ("a\u{1B}cb", "ab"),
      ("bell\u{07}", "bell"),
      ("line\nbreak\ttab", "line break tab"),
      ("cr\r\nlf", "cr lf"),
      ("c1\u{9B}2Jx", "c1x"),
      ("del\u{7F}", "del"),
      ("bidi\u{202E}txt", "biditxt"),
      ("café ☕ 日本", "café ☕ 日本"),
      ("\u{1B}(Bx", "x"),
      ("end\u{1B}", "end"),
    ])
  func sanitize(input: String, expected: String) {
    #expect(TerminalSanitizer.clean(input) == expected)
  }

  @Test("newlines can be kept")
  func keepNewlines() {
    #expect(TerminalSanitizer.clean("a\r\nb\u{1B}[2J", keepNewlines: true) == "a\nb")
  }

  @Test(
    "HTML in content becomes plain text",
    arguments: [
      ("<ul><li>One</li><li>Two</li></ul>", "One\nTwo"),
      ("Tom &amp; Jerry &#8217;s &#x41; &nbsp;x", "Tom & Jerry ’s A x"),
      ("Text… [+8749 chars]", "Text…"),
      ("Cut here [+12 chars]", "Cut here…"),
      ("a\r\nb", "a\nb"),
      ("1 < 2 and 3 > 2", "1 < 2 and 3 > 2"),
      ("&unknown; stays", "&unknown; stays"),
      ("Not a marker [+x chars]", "Not a marker [+x chars]"),
    ])
  func html(input: String, expected: String) {
    #expect(HTMLText.plain(input) == expected)
  }

  @Test(
    "wrapping respects the width and keeps every word",
    arguments: [20, 33, 80])
  func wrap(width: Int) {
    let text = "The quick brown fox jumps over the lazy dog and keeps on running far away"
    let lines = TextWrapper.wrap(text, width: width)
    #expect(lines.allSatisfy { $0.count <= width })
    #expect(lines.joined(separator: " ") == text)
  }

  @Test("a word longer than the width is cut")
  func longWord() {
    #expect(
      TextWrapper.wrap(String(repeating: "x", count: 25), width: 10) == [
        "xxxxxxxxxx", "xxxxxxxxxx", "xxxxx",
      ])
  }

  /// Japanese and Chinese have no spaces: a paragraph is cut at any character, but a line may
  /// not start with closing punctuation nor end with an opening bracket (kinsoku). `、` started
  /// a line of the Nikkei story in `show --full`.
  @Test(
    "Chinese and Japanese lines never start with 、。」 nor end with 「 (kinsoku)",
    arguments: [
      // Five wide characters fill ten columns: the sixth, `、`, takes the fifth down with it.
      ("米大統領は、金正恩と会談した", ["米大統領", "は、金正恩", "と会談した"]),
      // `「` would end the first line: it goes down to open the second; `」` would start the
      // third: `プ` goes down with it.
      ("米大統領「トランプ」と金正恩", ["米大統領", "「トラン", "プ」と金正", "恩"]),
      // A line of nothing but opening quotes: the width wins over the rules.
      ("a‘‘‘‘‘‘‘‘‘字", ["a‘‘‘‘‘‘‘‘‘", "字"]),
    ])
  func kinsoku(text: String, expected: [String]) {
    let lines = TextWrapper.wrap(text, width: 10)
    #expect(lines.joined() == text)
    #expect(lines.allSatisfy { TextWrapper.columns(Substring($0)) <= 10 })
    #expect(!lines.dropFirst().contains { "、。」".contains($0.first ?? " ") })
    #expect(!lines.dropLast().contains { $0.last == "「" } || text.hasPrefix("a"))
    #expect(lines == expected, "\(lines)")
  }

  @Test(
    "a link is never broken: a longer one stands whole on a line of its own (#47.3)",
    arguments: [true, false])
  func longLink(asciiFastPath: Bool) {
    let link =
      "https://example.com/2026/11/why-are-there-so-many-links-" + (asciiFastPath ? "" : "é")
    let lines = TextWrapper.wrap(
      "Read more at " + link + " today", width: 30, asciiFastPath: asciiFastPath)
    #expect(lines == ["Read more at", link, "today"])
    // In a list of links, as show prints it.
    #expect(
      TextWrapper.wrap("[12] " + link, width: 20, asciiFastPath: asciiFastPath).contains(link))
  }

  @Test("the fuzzer's case: a word that only becomes a link once cut is cut on both paths")
  func linkAfterCut() {
    let text = String(decoding: Fixtures.data("fuzz/text-link-wrap.txt"), as: UTF8.self)
    for width in [10, 17, 30] {
      #expect(
        TextWrapper.wrap(text, width: width, asciiFastPath: true)
          == TextWrapper.wrap(text, width: width, asciiFastPath: false))
    }
  }

  @Test("wide characters take two columns")
  func wide() {
    #expect(TextWrapper.columns("日本語") == 6)
    #expect(TextWrapper.wrap("日本語 日本語", width: 10) == ["日本語", "日本語"])
  }

  @Test("the first lines are cut with an ellipsis")
  func firstLines() {
    let lines = TextWrapper.firstLines(
      "one two three four five six seven eight nine ten", width: 14, count: 2)
    #expect(lines.count == 2)
    #expect(lines[1].hasSuffix("…"))
    #expect(lines.allSatisfy { $0.count <= 14 })
    #expect(TextWrapper.firstLines("short", width: 14, count: 2) == ["short"])
  }

  @Test(
    "ISO 8601 variants",
    arguments: [
      ("2019-03-27T19:16:39Z", 1_553_714_199.0),
      ("2019-03-27T19:16:39.5Z", 1_553_714_199.5),
      ("2019-03-27T19:16:39.123456789Z", 1_553_714_199.123456789),
      ("2019-03-27T21:16:39+02:00", 1_553_714_199.0),
      ("2019-03-27T14:16:39-0500", 1_553_714_199.0),
      ("2019-03-27T19:16:39", 1_553_714_199.0),
      ("2019-03-27T19:16Z", 1_553_714_160.0),
      ("2019-03-27", 1_553_644_800.0),
      ("1970-01-01T00:00:00Z", 0),
      ("1969-12-31T23:59:59Z", -1),
      ("2024-02-29T00:00:00Z", 1_709_164_800),
    ])
  func iso8601(text: String, seconds: Double) throws {
    let date = try #require(ISO8601.date(from: text))
    #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_001)
  }

  @Test(
    "invalid timestamps are nil",
    arguments: [
      "", "yesterday", "2019-13-01", "2019-02-30", "2019-03-27T25:00:00Z",
      "2019-03-27T19:16:39Q", "2019-03-27T19:16:39+2", "１９７０-01-01",
    ])
  func invalidISO(text: String) {
    #expect(ISO8601.date(from: text) == nil)
  }

  @Test("formatting is UTC and round-trips")
  func iso8601Format() {
    #expect(
      ISO8601.string(from: Date(timeIntervalSince1970: 1_553_714_199.9)) == "2019-03-27T19:16:39Z")
    #expect(ISO8601.string(from: Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
    // Years padded to four digits, as printf's %04ld pads them, the sign counted.
    #expect(
      ISO8601.string(from: Date(timeIntervalSince1970: -62_135_596_800)) == "0001-01-01T00:00:00Z")
    #expect(
      ISO8601.string(from: Date(timeIntervalSince1970: -62_198_755_200)) == "-001-01-01T00:00:00Z")
    #expect(
      ISO8601.string(from: Date(timeIntervalSince1970: 253_402_300_800)) == "10000-01-01T00:00:00Z")
    // The edges of the four-digit years, written twenty bytes at once.
    #expect(
      ISO8601.string(from: Date(timeIntervalSince1970: -62_167_219_200)) == "0000-01-01T00:00:00Z")
    #expect(
      ISO8601.string(from: Date(timeIntervalSince1970: 253_402_300_799)) == "9999-12-31T23:59:59Z")
    var appended = Array("at ".utf8)
    ISO8601.write(Date(timeIntervalSince1970: 1_553_714_199), to: &appended)
    #expect(String(decoding: appended, as: UTF8.self) == "at 2019-03-27T19:16:39Z")
    // Any time of the years 1600 to 9999 as Foundation's formatter writes it (before the
    // Gregorian calendar, it counts Julian days: ours is proleptic, as RFC 3339 is).
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    var generator = SeededGenerator(seed: 9)
    for _ in 0..<2_000 {
      let seconds = Double(Int64.random(in: -11_676_096_000..<253_402_300_800, using: &generator))
      let date = Date(timeIntervalSince1970: seconds)
      #expect(ISO8601.string(from: date) == formatter.string(from: date), "\(seconds)")
    }
  }

  @Test(
    "relative times",
    arguments: [
      (0, "just now"), (-30, "just now"), (59, "just now"), (60, "1m ago"),
      (3599, "59m ago"), (3600, "1h ago"), (86_399, "23h ago"), (86_400, "1d ago"),
      (6 * 86_400, "6d ago"), (8 * 86_400, "27 Dec 2023"),
    ])
  func relative(secondsAgo: Int, expected: String) {
    let now = Date(timeIntervalSince1970: 1_704_326_400)  // 2024-01-04T00:00:00Z
    #expect(
      RelativeTime.describe(now.addingTimeInterval(-Double(secondsAgo)), now: now) == expected)
  }

  @Test(
    "times to come, rounded up (asked again in 5m is not before 5 minutes)",
    arguments: [
      (0, "now"), (-30, "now"), (1, "in 1s"), (59, "in 59s"), (60, "in 1m"), (61, "in 2m"),
      (3600, "in 1h"), (3601, "in 2h"), (86_400, "in 1d"), (6 * 86_400, "in 6d"),
      (8 * 86_400, "on 12 Jan 2024"),
    ])
  func until(secondsAhead: Int, expected: String) {
    let now = Date(timeIntervalSince1970: 1_704_326_400)  // 2024-01-04T00:00:00Z
    #expect(
      RelativeTime.until(now.addingTimeInterval(Double(secondsAhead)), now: now) == expected)
  }

  @Test("JSON keeps key order, writes null and escapes control characters")
  func json() {
    let value = JSONValue.object([
      ("b", .string("x\"y\n\u{1B}")), ("a", .null), ("n", .int(3)), ("t", .bool(true)),
      ("l", .array([])), ("url", .string("http://a/b")),
    ])
    #expect(
      value.serialized()
        == #"{"b":"x\"y\n\u001b","a":null,"n":3,"t":true,"l":[],"url":"http://a/b"}"#)
    #expect(JSONValue.array([.int(1)]).serialized(pretty: true) == "[\n  1\n]")
    let nested = JSONValue.object([
      ("a", .array([.int(-1), .object([("b", .string("c\u{2028}é"))]), .object([])])),
      ("d", .bool(false)),
    ])
    #expect(
      nested.serialized(pretty: true)
        == "{\n  \"a\": [\n    -1,\n    {\n      \"b\": \"c\\u2028é\"\n    },\n    {}\n  ],\n  \"d\": false\n}"
    )
    #expect(
      JSONValue.object([("x", .array([.null]))]).serialized(prettyAt: 2)
        == "{\n      \"x\": [\n        null\n      ]\n    }")
  }

  @Test(
    "an integer is written as its decimal digits, the sign first, whatever its size",
    arguments: [0, 7, 10, 99, -1, -10, 1_234_567_890, Int.max, Int.min])
  func integers(value: Int) {
    #expect(JSONValue.int(value).serialized() == String(value))
    var bytes = Array("[".utf8)
    JSONValue.array([.int(value)]).write(prettyAt: 1, to: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == "[[\n    \(value)\n  ]")
  }

  @Test("stable hashes do not change between runs")
  func stableHash() {
    #expect(StableHash.hex("headline") == "221d6b47bd80")
    #expect(StableHash.hex("", length: 16) == "af63bd4c8601b7df")
    #expect(StableHash.hex("a", "bc") != StableHash.hex("ab", "c"))
    #expect(StableHash.hex("headline", length: 6).count == 6)
  }
}

extension FormattingTests {
  @Test(
    "JSON strings: the fast path and the escaping path agree with JSONSerialization",
    arguments: [
      "plain", "café …", "quote \"", "back\\slash", "c1 \u{85}", "ls \u{2028}", "tab\t",
      "del \u{7F}", "emoji 😀",
    ])
  func jsonStrings(text: String) throws {
    let written = JSONValue.array([.string(text)]).serialized()
    let parsed = try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String]
    #expect(parsed == [text])
  }
}
