import Foundation
import Testing

@testable import FeedParsing
@testable import NewsCore

@Suite("Fast paths agree with the full code; the compact cache format round-trips")
struct FastPathTests {
  /// Strings from an alphabet of every character the fast paths look at.
  static func samples(count: Int) -> [String] {
    let alphabet: [String] = [
      "a", "B", " ", " ", "\n", "\n", "<", ">", "&", "amp;", ";", "\r", "\r\n", "\t", "é",
      "e\u{301}",
      "日", "[+12 chars]", "chars]", "\u{1B}", "[", "\u{9B}", "\u{2028}", "\u{202E}", "\u{7F}",
      "👍", " \u{301}",
    ]
    return texts(count, of: alphabet, upTo: 12, seed: 42)
  }

  /// `count` strings, each up to `most` of `pieces` joined, drawn from `seed`.
  static func texts(_ count: Int, of pieces: [String], upTo most: Int, seed: UInt64) -> [String] {
    var generator = SeededGenerator(seed: seed)
    return (0..<count).map { _ in
      (0..<Int.random(in: 0...most, using: &generator)).map { _ in
        pieces.randomElement(using: &generator)!
      }.joined()
    }
  }

  @Test("HTMLText.plain's fast path returns what the full cleaning returns")
  func html() {
    for text in Self.samples(count: 20_000) {
      #expect(HTMLText.plain(text) == HTMLText.cleaned(text), "\(text.debugDescription)")
    }
  }

  @Test("TerminalSanitizer and column counts: ASCII fast paths agree")
  func sanitizer() {
    for text in Self.samples(count: 5_000) + ["plain ascii", "a\nb", ""] {
      for keep in [false, true] {
        let cleaned = TerminalSanitizer.clean(text, keepNewlines: keep)
        #expect(TerminalSanitizer.clean(cleaned, keepNewlines: keep) == cleaned)
      }
      var slow = 0
      for character in text { slow += TextWrapper.columns(of: character) }
      if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
        #expect(TextWrapper.columns(text[...]) == slow)
      }
    }
  }

  @Test("wrapping: the ASCII fast path breaks lines where the character path does")
  func wrap() {
    var generator = SeededGenerator(seed: 7)
    let words = [
      "a", "word", "longer-word", " ", "  ", "x" + String(repeating: "y", count: 25), "\n",
      // What a line that fits is still looked at for: a quote, a numbered item.
      "> ", "3. ", "12",
    ]
    for _ in 0..<5_000 {
      let text = (0..<Int.random(in: 0...30, using: &generator)).map { _ in
        words.randomElement(using: &generator)!
      }.joined(separator: Bool.random(using: &generator) ? " " : "")
      for width in [10, 13, 40] {
        let lines = TextWrapper.wrap(text, width: width, asciiFastPath: false)
        #expect(
          TextWrapper.wrap(text, width: width, asciiFastPath: true) == lines,
          "\(text.debugDescription)")
        // A text said to fit is its one line, as it is (a list then skips the array).
        if TextWrapper.fits(text, width: width) {
          #expect(lines == [text], "\(text.debugDescription)")
        }
      }
    }
  }

  @Test(
    "printable ASCII, eight bytes at a time, is what a byte at a time says",
    arguments: [false, true])
  func printableASCII(newlines: Bool) {
    var generator = SeededGenerator(seed: newlines ? 13 : 12)
    // Mostly printable, with now and then a byte from either side of each bound.
    let odd: [UInt8] = [0x00, 0x0A, 0x0D, 0x1F, 0x20, 0x7E, 0x7F, 0x80, 0xC2, 0xE2, 0xFF]
    for _ in 0..<5_000 {
      let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
        Int.random(in: 0..<12, using: &generator) == 0
          ? odd.randomElement(using: &generator)! : UInt8.random(in: 0x20...0x7E, using: &generator)
      }
      let expected = bytes.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || (newlines && $0 == 0x0A) }
      #expect(
        bytes.withUnsafeBufferPointer { ASCIIWord.isPrintable($0, allowingNewlines: newlines) }
          == expected, "\(bytes)")
    }
  }

  @Test("JSON: a string is said to need escapes exactly when it holds a character escaped")
  func needsEscaping() {
    var generator = SeededGenerator(seed: 11)
    // Plain ASCII in runs long enough to fill the eight-byte steps, and one of each kind of
    // character around them: escaped (controls, quote, backslash, DEL, C1, U+2028/9) or not.
    let pieces = [
      "plain words", "abcdefghijklmnop", " ", "~", "\"", "\\", "\n", "\u{01}", "\u{1F}",
      "\u{7F}", "é", "\u{85}", "\u{9F}", "\u{A0}", "\u{2027}", "\u{2028}", "\u{2029}", "€",
      "📰", "\u{0800}",
    ]
    func escaped(_ scalar: Unicode.Scalar) -> Bool {
      let value = scalar.value
      return value < 0x20 || value == 0x22 || value == 0x5C || value == 0x7F
        || (0x80..<0xA0).contains(value) || value == 0x2028 || value == 0x2029
    }
    for _ in 0..<5_000 {
      var text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
        Bool.random(using: &generator)
          ? pieces[0...1].randomElement(using: &generator)!
          : pieces.randomElement(using: &generator)!
      }.joined()
      let expected = text.unicodeScalars.contains(where: escaped)
      let said = text.withUTF8 { JSONValue.needsEscaping($0) }
      #expect(said == expected, "\(text.debugDescription)")
    }
  }

  @Test("trimming: the byte path trims what the character path trims, on strings and slices")
  func trimming() {
    // White space of every kind, what joins a character before or after it (a combining mark,
    // a prepended Arabic sign, a zero-width joiner), and letters.
    let alphabet = [
      " ", "\t", "\r", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{00A0}", "\u{3000}", "\u{2028}",
      "\u{0085}", "\u{301}", "\u{0600}", "\u{200D}", "a", "Z", "é", "日", "👍", "1",
    ]
    var trimmedSome = 0
    for text in Self.texts(20_000, of: alphabet, upTo: 8, seed: 11) {
      let expected = text.trimmingWhitespaceByCharacter()
      #expect(text.trimmingWhitespace() == expected, "\(text.debugDescription)")
      let slice = text.dropFirst()
      #expect(slice.trimmingWhitespace() == slice.trimmingWhitespaceByCharacter())
      if expected.count < text.count { trimmedSome += 1 }
    }
    // The cases are not all alike: many strings have white space to trim.
    #expect(trimmedSome > 5_000)
    #expect(" \u{301}a ".trimmingWhitespace() == "a")
    #expect("\u{0600} ".trimmingWhitespace() == "\u{0600} ".trimmingWhitespaceByCharacter())
  }

  @Test("the last `Links:` list and the link marks found by bytes are those found by characters")
  func linksAndMarks() {
    let alphabet = [
      "a", " ", "\n", "\n\n", "Links:", "\n\nLinks:\n", "[", "]", "[1]", "[12]", "0", "7",
      "123456", "é", "日", "👍", "[[", "x]",
    ]
    var found = 0
    for text in Self.texts(20_000, of: alphabet, upTo: 10, seed: 5) {
      let expected = text.range(of: "\n\nLinks:\n", options: .backwards)
      #expect(text.lastRange(ofBytes: "\n\nLinks:\n") == expected, "\(text.debugDescription)")
      if expected != nil { found += 1 }
      let marks = LinkMark.marks(in: text[...])
      #expect(marks == Self.marksByCharacter(text[...]), "\(text.debugDescription)")
      #expect(marks.allSatisfy { text[$0.range].hasPrefix("[") && text[$0.range].hasSuffix("]") })
    }
    #expect(found > 2_000)
    #expect("no list".lastRange(ofBytes: "\n\nLinks:\n") == nil)
    #expect("ab".lastRange(ofBytes: "abc") == nil)
  }

  /// The marks as ``LinkMark/marks(in:)`` found them by characters, before it read bytes.
  static func marksByCharacter(_ text: Substring) -> [LinkMark] {
    var marks: [LinkMark] = []
    var rest = text
    while let open = rest.firstIndex(of: "[") {
      let after = rest[rest.index(after: open)...]
      let digits = after.prefix { $0.isASCII && $0.isNumber }
      rest = after
      guard (1...5).contains(digits.count), digits.endIndex < after.endIndex,
        after[digits.endIndex] == "]", let number = Int(digits), number > 0
      else { continue }
      let close = after.index(after: digits.endIndex)
      marks.append(LinkMark(range: open..<close, number: number))
      rest = after[close...]
    }
    return marks
  }

  @Test("a scheme found by its bytes is the one found by characters; names and their @")
  func scheme() {
    let pieces = [
      "http", "a", "Z9", "+", "-", ".", ":", "//", "\u{301}", "é", " ", "@", "(", ")", "<", ">",
      "x.y", "mailto", "1",
    ]
    var schemes = 0
    for text in Self.texts(20_000, of: pieces, upTo: 7, seed: 3) {
      let expected = FeedLinks.hasSchemeByCharacter(text)
      #expect(FeedLinks.hasScheme(text) == expected, "\(text.debugDescription)")
      if expected { schemes += 1 }
    }
    #expect(schemes > 200)
    #expect(!FeedLinks.hasScheme("http:\u{301}//x"))
    #expect(
      FeedDocumentParser.personName(name: nil, email: nil, text: "ann@example.com (Ann)") == "Ann")
    #expect(
      FeedDocumentParser.personName(name: nil, email: nil, text: "Reporter 3") == "Reporter 3")
  }

  @Test(
    "a stored string is UTF-8 exactly when String(validating:) says so",
    arguments: [
      [], Array("plain".utf8), Array("café 日本 👍".utf8), Array("\u{FFFD} kept".utf8),
      [0xFF], [0x61, 0xE2, 0x82], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
      [0x61, 0x80, 0x62],
    ] as [[UInt8]])
  func utf8(bytes: [UInt8]) {
    let framed = [0x41] + bytes + [0x42]
    let slice = framed[1..<(framed.count - 1)]
    #expect(BinaryReader.validatedUTF8(slice) == String(validating: bytes, as: UTF8.self))
  }

  @Test("a cache entry with every field set or absent round-trips through the compact format")
  func roundTrip() throws {
    var full = FeedItem(
      feed: "blog", title: "Title ✓", description: "Sub", imageURL: "https://i/1.jpg",
      url: "https://e/1")!
    full.publishedAt = Date(timeIntervalSince1970: 1_700_000_000.5)
    full.author = "Ann"
    full.content = "Body\nwith lines"
    let bare = FeedItem(feed: "a", title: "Only a title", description: nil, imageURL: nil)!
    for kept in [nil, false, true] as [Bool?] {
      let entry = FeedCacheEntry(
        url: "https://e/feed", items: [full, bare], fetchedAt: Date(timeIntervalSince1970: 5),
        etag: kept == true ? "\"v1\"" : nil, lastModified: kept == false ? "Mon" : nil, kept: kept)
      let decoded = try FeedCacheEntry.decode(entry.encoded())
      #expect(decoded.items == entry.items)
      // The first compact version (NFC1) ended after the items, the second (NFC2) after the
      // hint's seconds, their items without categories; both still read, their posting rate
      // read from the items.
      let first = Self.earlier(entry, magic: "NFC1")
      #expect(try FeedCacheEntry.decode(first).items == entry.items)
      var second = Self.earlier(entry, magic: "NFC2")
      second += Array((try entry.encoded()).suffix(19).prefix(8))
      #expect(try FeedCacheEntry.decode(second).items == entry.items)
      #expect(try FeedCacheEntry.decode(second).postsEvery == 0)
      #expect(try FeedCacheEntry.decodeSummary(second).postsEvery == 0)
      #expect(try FeedCacheEntry.decodeSummary(second).items.isEmpty)
      #expect(decoded.url == entry.url && decoded.fetchedAt == entry.fetchedAt)
      #expect(decoded.etag == entry.etag && decoded.lastModified == entry.lastModified)
      #expect(decoded.kept == entry.kept)
      #expect(decoded.hint == nil && decoded.postsEvery == nil)
    }
    // What the source said of its freshness, and how often it posts, are kept.
    var hinted = FeedCacheEntry(
      url: "https://e/feed", items: [], fetchedAt: Date(timeIntervalSince1970: 5), etag: nil,
      lastModified: nil)
    hinted.hint = FreshnessHint(seconds: 600, kind: .cacheControl)
    hinted.postsEvery = 3_600
    // An item's categories are kept with it, in the entry and in a pack.
    var filed = full
    filed.categories = ["Climate", "Open source"]
    hinted.items = [filed, bare]
    let decoded = try FeedCacheEntry.decode(hinted.encoded())
    #expect(decoded.hint == FreshnessHint(seconds: 600, kind: .cacheControl))
    #expect(decoded.postsEvery == 3_600)
    #expect(decoded.items == hinted.items)
    #expect(FeedItemPack([filed, bare]).items.map(\.categories) == [filed.categories, []])
    let packed = try FeedCacheEntry.decode(hinted.encoded(with: FeedItemPack([filed, bare])))
    #expect(packed.items.map(\.categories) == [filed.categories, []])
    // What news sources reads of an entry: all but its items, which it skips.
    hinted.title = "Ann's «log»"
    hinted.site = "https://ann.example/"
    let summary = try FeedCacheEntry.decodeSummary(hinted.encoded())
    #expect(summary.items.isEmpty && summary.url == hinted.url)
    #expect(summary.fetchedAt == hinted.fetchedAt && summary.hint == hinted.hint)
    #expect(summary.postsEvery == 3_600)
    #expect(summary.title == "Ann's «log»" && summary.site == "https://ann.example/")
    // The third version (NFC3) ended before the feed's title and site: read as before, its
    // items still left packed where they are.
    hinted.title = nil
    hinted.site = nil
    var third = try hinted.encoded()
    third.removeLast(2)
    third.replaceSubrange(0..<4, with: Array("NFC3".utf8))
    let older = try FeedCacheEntry.decode(third)
    #expect(older.items == hinted.items && older.postsEvery == 3_600)
    #expect(older.title == nil && older.site == nil)
    let (entry, pack) = try #require(try FeedCacheEntry.decodePacked(third))
    #expect(entry.hint == hinted.hint)
    #expect(pack.items == hinted.items)
  }

  /// `entry` as an earlier version wrote it under `magic`: its header, then its items without
  /// categories (each written, less its last byte: none), and no trailer.
  static func earlier(_ entry: FeedCacheEntry, magic: String) -> [UInt8] {
    var writer = BinaryWriter(magic: magic)
    writer.string(entry.url)
    writer.double(entry.fetchedAt.timeIntervalSince1970)
    writer.optionalString(entry.etag)
    writer.optionalString(entry.lastModified)
    writer.bool(entry.kept)
    writer.integer(entry.items.count)
    for item in entry.items {
      writer.string(item.id)
      writer.string(item.feed)
      var fields = BinaryWriter(magic: "")
      FeedItemPack.write(item, to: &fields)
      writer.raw(fields.bytes.dropLast())
    }
    return writer.bytes
  }

  @Test("a cut or altered record throws, never traps")
  func malformed() throws {
    let entry = FeedCacheEntry(
      url: "https://e/feed",
      items: [
        FeedItem(feed: "a", title: "T", description: "S", imageURL: nil, url: "https://e/1")!
      ],
      fetchedAt: Date(), etag: nil, lastModified: nil, kept: true)
    let bytes = try entry.encoded()
    for length in 4..<bytes.count {
      #expect(throws: (any Error).self) { try FeedCacheEntry.decode(Array(bytes.prefix(length))) }
      #expect(throws: (any Error).self) {
        try FeedCacheEntry.decodeSummary(Array(bytes.prefix(length)))
      }
    }
    #expect(throws: (any Error).self) { try FeedCacheEntry.decode(bytes + [0]) }
    #expect(throws: (any Error).self) { try FeedCacheEntry.decodeSummary(bytes + [0]) }
    var huge = Array("NFC1".utf8)
    huge += [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]
    #expect(throws: (any Error).self) { try FeedCacheEntry.decode(huge) }
    // Regression (fuzzing): a NaN time decoded, then never equalled itself.
    var nan = bytes
    let time = 4 + 1 + "https://e/feed".utf8.count
    nan.replaceSubrange(time..<(time + 8), with: [0, 0, 0, 0, 0, 0, 0xF8, 0x7F])
    #expect(throws: BinaryReader.Malformed(detail: "not a finite number")) {
      try FeedCacheEntry.decode(nan)
    }
  }
}

/// A small deterministic generator (SplitMix64), so failures can be replayed.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
