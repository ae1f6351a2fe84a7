import Foundation
import Testing

@testable import FeedParsing
@testable import NewsCore

/// Text from the network can be megabytes long: every per-character step must be linear. Before,
/// a 1 MB word took minutes to wrap and HTML with a million `<a` never finished; the time limit
/// only catches a regression that never ends (wide: the whole suite shares two cores under
/// AddressSanitizer in CI), the work itself takes milliseconds.
@Suite("Text handling is linear in the length of the text", .timeLimit(.minutes(10)))
struct LinearTextTests {
  @Test("a 1 MB word is wrapped into full lines, once")
  func hugeWord() {
    let word = String(repeating: "x", count: 1 << 20)
    let lines = TextWrapper.wrap("before " + word + " after", width: 80)
    #expect(lines.first == "before")
    #expect(lines.dropFirst().dropLast().allSatisfy { $0.count == 80 })
    #expect(lines.joined().count == "before".count + word.count + " after".count)
    #expect(lines.last?.hasSuffix(" after") == true)
  }

  @Test("wide characters in a long word never overflow the line")
  func wideCharacters() {
    let lines = TextWrapper.wrap(String(repeating: "漢", count: 100_000), width: 21)
    #expect(lines.allSatisfy { TextWrapper.columns(Substring($0)) <= 21 })
    #expect(lines.map(\.count).reduce(0, +) == 100_000)
  }

  @Test(
    "HTML with a million unclosed or stray brackets",
    arguments: [
      String(repeating: "<a ", count: 300_000), String(repeating: "< ", count: 500_000),
      String(repeating: "<a", count: 300_000) + ">end",
      String(repeating: "&amp", count: 250_000),
    ])
  func hugeHTML(text: String) {
    let plain = HTMLText.plain(text)
    #expect(plain.count <= text.count)
    #expect(!plain.isEmpty)
  }

  @Test("a closed tag after stray brackets is still removed")
  func tagAfterStrayBrackets() {
    #expect(HTMLText.plain("a < b <b>bold</b> c") == "a < b bold c")
    #expect(HTMLText.plain("x <a never closed") == "x <a never closed")
  }

  @Test("sanitising 5 MB of escape sequences and separators")
  func hugeSanitize() {
    let text = String(repeating: "a\u{1B}[31mb\u{2028}c\u{2029}", count: 500_000)
    let clean = TerminalSanitizer.clean(text)
    #expect(clean.count == 3 * 500_000 + 2 * 500_000)
    #expect(!clean.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x2028 })
  }

  @Test("U+2028 and U+2029 never reach the terminal; with line breaks kept they break lines")
  func lineSeparators() {
    #expect(TerminalSanitizer.clean("one\u{2028}two\u{2029}three") == "one two three")
    #expect(
      TerminalSanitizer.clean("one\u{2028}two\u{2029}three", keepNewlines: true)
        == "one\ntwo\nthree")
  }

  @Test(
    "very long fields are shortened with an ellipsis",
    arguments: [
      ("short", 10, "short"), ("exactly10!", 10, "exactly10!"), ("eleven char", 10, "eleven ch…"),
      ("abc", 0, ""),
    ])
  func shortened(text: String, maximum: Int, expected: String) {
    #expect(TextWrapper.shortened(text, to: maximum) == expected)
  }

  @Test("the first two lines count the text's own line breaks")
  func firstLinesCountBreaks() {
    #expect(
      TextWrapper.firstLines("line one\nline two\nline three", width: 40, count: 2)
        == ["line one", "line two…"])
  }
}
