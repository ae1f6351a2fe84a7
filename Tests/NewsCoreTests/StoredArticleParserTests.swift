import Foundation
import TestSupport
import Testing

@testable import NewsCore

@Suite("Fast reader of article files")
struct StoredArticleParserTests {
  static func encode(_ records: [StoredArticle]) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    return Array(try encoder.encode(records))
  }

  static let records = [
    StoredArticle(
      article: Article(
        id: "example.com-a?b=c", provider: "newsapi", title: "Quote \" backslash \\ tab \t é 😀",
        description: "line\nbreak \u{1B}[31m", author: nil, source: "S", url: "https://e.x/a/b",
        imageURL: nil, publishedAt: Date(timeIntervalSince1970: 1_645_000_000.5),
        content: "… [+123 chars]"),
      seenAt: Date(timeIntervalSince1970: 1_700_000_000)),
    StoredArticle(
      article: Article(id: "bbc-1", provider: "bbc", title: "T"),
      seenAt: Date(timeIntervalSince1970: -12.25)),
  ]

  @Test("reads what the store writes exactly as JSONDecoder does")
  func agrees() throws {
    let bytes = try Self.encode(Self.records)
    let fast = try #require(StoredArticleParser.parse(bytes))
    let slow = try JSONDecoder().decode([StoredArticle].self, from: Data(bytes))
    #expect(fast.map(\.article) == slow.map(\.article))
    #expect(fast.map(\.seenAt) == slow.map(\.seenAt))
    #expect(fast.map(\.article) == Self.records.map(\.article))
  }

  @Test("escaped slashes and unicode escapes are read too")
  func escapes() throws {
    let text = #"[{"id":"a\/b","provider":"p","title":"\u00e9\ud83d\ude00","seenAt":1}]"#
    let fast = try #require(StoredArticleParser.parse(Array(text.utf8)))
    #expect(fast[0].article.id == "a/b")
    #expect(fast[0].article.title == "é😀")
  }

  @Test(
    "anything else is left to JSONDecoder (nil)",
    arguments: [
      #"{"id":"a"}"#, #"[{"id":"a","provider":"p","title":"t"}]"#,
      #"[{"id":"a","provider":"p","title":"t","seenAt":1,"extra":true}]"#,
      #"[{"id":"a","provider":"p","title":"t","seenAt":"1"}]"#, "[", "", "[] x",
      #"[{"id":"a","provider":"p","title":"t","seenAt":01}]"#,
      #"[{"id":"a","provider":"p","title":"t","seenAt":1.}]"#,
      #"[{"id":"a","provider":"p","title":"t","seenAt":-}]"#,
      #"[{"id":"a","provider":"p","title":"t","seenAt":1e999}]"#,
      #"[{"id":"a\q","provider":"p","title":"t","seenAt":1}]"#,
      "[{\"id\":\"a\u{01}\",\"provider\":\"p\",\"title\":\"t\",\"seenAt\":1}]",
    ])
  func refuses(text: String) {
    #expect(StoredArticleParser.parse(Array(text.utf8)) == nil)
  }

  @Test("an empty list and whitespace are fine")
  func empty() {
    #expect(StoredArticleParser.parse(Array(" [ ] \n".utf8))?.isEmpty == true)
  }

  @Test("regression (fuzzing): a repeated key is left to JSONDecoder")
  func repeatedKey() {
    #expect(
      StoredArticleParser.parse(Array(Fixtures.data("fuzz/records-duplicate-key.json"))) == nil)
  }

  @Test("regression (fuzzing): invalid UTF-8 is left to JSONDecoder")
  func invalidUTF8() {
    #expect(
      StoredArticleParser.parse(Array(Fixtures.data("fuzz/records-invalid-utf8.json"))) == nil)
  }
}

@Suite("Searching article files on their bytes")
struct ByteSearchTests {
  @Test(
    "finds exactly what decoding everything and matching finds",
    arguments: [["quote"], ["é"], ["CAFE"], ["line", "break"], ["nothing"], ["t"]])
  func agrees(words: [String]) throws {
    var records = StoredArticleParserTests.records
    records.append(
      StoredArticle(
        article: Article(id: "c", provider: "p", title: "Café Quote", content: "plain"),
        seenAt: Date(timeIntervalSince1970: 5)))
    let bytes = try StoredArticleParserTests.encode(records)
    var matcher = try #require(ArticleSearch.Matcher(words))
    let fast = try #require(StoredArticleParser.matching(bytes, &matcher))
    let slow = ArticleSearch.matching(words, in: records.map(\.article))
    #expect(Set(fast.map(\.article)) == Set(slow))
  }

  @Test(
    "a record without a required field or with a wrong type is left to JSONDecoder",
    arguments: [
      #"[{"provider":"p","title":"t","seenAt":1}]"#,
      #"[{"id":"a","provider":"p","title":"t","seenAt":"1"}]"#,
      #"[{"id":"a","provider":"p","title":null,"seenAt":1}]"#,
      #"[{"id":"a","provider":"p","title":"t","seenAt":1,"url":5}]"#,
    ])
  func refuses(text: String) throws {
    var matcher = try #require(ArticleSearch.Matcher(["zzz"]))
    #expect(StoredArticleParser.matching(Array(text.utf8), &matcher) == nil)
  }
}

extension ByteSearchTests {
  @Test("picking records by id finds exactly those, escaped or not")
  func byID() throws {
    let bytes = try StoredArticleParserTests.encode(StoredArticleParserTests.records)
    let picked = try #require(
      StoredArticleParser.records(bytes, ids: ["example.com-a?b=c", "bbc-1", "absent"]))
    #expect(Set(picked.map(\.article.id)) == ["example.com-a?b=c", "bbc-1"])
    #expect(StoredArticleParser.records(bytes, ids: [])?.isEmpty == true)
  }
}
