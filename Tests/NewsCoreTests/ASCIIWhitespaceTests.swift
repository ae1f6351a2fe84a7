import Testing

@testable import FeedParsing

@Suite("whitespace read from ASCII bytes says what Character.isWhitespace says")
struct ASCIIWhitespaceTests {
  @Test(
    "a line is collapsed as splitting on whitespace and joining with one space collapses it",
    arguments: [
      "plain title", "  leading", "trailing \t", "two  spaces", "tab\tinside", "line\nfeed",
      "\r\n", "", " ", "a", "vertical\u{0B}tab form\u{0C}feed", "café au lait",
      "non\u{00A0}breaking", "next\u{0085}line", "ideographic\u{3000}space",
    ])
  func line(text: String) {
    let words = text.split(whereSeparator: \.isWhitespace)
    let expected = words.isEmpty ? nil : words.joined(separator: " ")
    #expect(FeedDocumentParser.line(text) == expected)
  }

  @Test("every ASCII byte is whitespace exactly when its character is")
  func bytes() {
    for byte in UInt8(0)..<0x80 {
      #expect(
        ASCIIWhitespace.contains(byte) == Character(Unicode.Scalar(byte)).isWhitespace, "\(byte)")
    }
    #expect(ASCIIWhitespace.collapsed("é") == nil)
  }

  @Test(
    "a link with whitespace in it is not absolute, in ASCII or not",
    arguments: [
      ("https://example.com/a", true), ("https://example.com/a b", false),
      ("https://example.com/\tb", false), ("https://exämple.com/a", true),
      ("https://exämple.com/a\u{00A0}b", false), ("/relative", false),
    ])
  func absolute(link: String, absolute: Bool) {
    #expect(FeedLinks.isAbsolute(link) == absolute)
  }
}
