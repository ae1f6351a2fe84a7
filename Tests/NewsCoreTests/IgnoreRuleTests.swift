import Foundation
import Testing

@testable import FeedParsing
@testable import NewsCore

@Suite("ignore rules (the killfile)")
struct IgnoreRuleTests {
  static let article = Article(
    id: "x", provider: "hn", title: "Sponsored: Crypto Café opens", description: "A new NFT shop",
    author: "Ann Example", url: "https://ads.example.com/a", content: "Buy now")

  @Test(
    "a rule matches its field only, by words (folded) or a regular expression, of its source",
    arguments: [
      (IgnoreRule(field: .title, pattern: "sponsored"), true),
      (IgnoreRule(field: .title, pattern: "CAFE crypto"), true),
      (IgnoreRule(field: .title, pattern: "cafe shop"), false),
      (IgnoreRule(field: .text, pattern: "cafe shop"), true),
      (IgnoreRule(field: .text, pattern: "buy"), true),
      (IgnoreRule(field: .author, pattern: "ann"), true),
      (IgnoreRule(field: .author, pattern: "sponsored"), false),
      (IgnoreRule(field: .link, pattern: "ads.example"), true),
      (IgnoreRule(field: .title, pattern: "^sponsored:", isRegex: true), true),
      (IgnoreRule(field: .title, pattern: "^crypto", isRegex: true), false),
      (IgnoreRule(field: .text, pattern: "nft|token", isRegex: true), true),
      // `^` at each field's start, as a query's expressions have it.
      (IgnoreRule(field: .text, pattern: "^a new nft", isRegex: true), true),
      (IgnoreRule(field: .link, pattern: "^https://ads\\.", isRegex: true), true),
      (IgnoreRule(field: .author, pattern: "example$", isRegex: true), true),
      (IgnoreRule(field: .title, pattern: "sponsored", source: "hn"), true),
      (IgnoreRule(field: .title, pattern: "sponsored", source: "lwn"), false),
    ])
  func matches(rule: IgnoreRule, expected: Bool) {
    var filter = IgnoreFilter([rule], timeZone: .gmt)
    let ignored = filter.ignores(Self.article)
    #expect(ignored == expected, "\(rule.summary)")
  }

  @Test(
    "a rule is a query: it hides what its listing, read as a query, matches",
    arguments: [
      IgnoreRule(field: .title, pattern: "sponsored cafe"),
      IgnoreRule(field: .text, pattern: "shop"), IgnoreRule(field: .author, pattern: "ann"),
      IgnoreRule(field: .link, pattern: "ads.example"),
      IgnoreRule(field: .title, pattern: "^sponsored:", isRegex: true),
      IgnoreRule(field: .title, pattern: "opens$", isRegex: true),
      IgnoreRule(field: .text, pattern: "^buy", isRegex: true),
      IgnoreRule(field: .link, pattern: "example\\.org", isRegex: true),
      IgnoreRule(field: .author, pattern: "^bo", isRegex: true),
      IgnoreRule(field: .link, pattern: "https://e\\.org/?$", isRegex: true),
      IgnoreRule(field: .link, pattern: "\\/\\/ads", isRegex: true),
    ])
  func ruleIsQuery(rule: IgnoreRule) throws {
    let others = [
      Self.article,
      Article(id: "y", provider: "hn", title: "Opens", description: "buy", url: "https://e.org"),
      Article(id: "z", provider: "hn", title: "Sponsored: nothing", author: "Bo"),
    ]
    var filter = IgnoreFilter([rule], timeZone: .gmt)
    var matcher = QueryMatcher(
      try ArticleQuery(rule.summary, timeZone: .gmt), facts: QueryFacts(now: .now))
    for article in others {
      let hidden = filter.ignores(article)
      let listed = matcher.matches(article)
      #expect(hidden == listed, "\(rule.summary) on \(article.id)")
    }
  }

  @Test("a query rule's days are those of the time zone it is given, the run's one")
  func queryRuleTimeZone() throws {
    let rule = IgnoreRule(field: .query, pattern: "date:2026-11-02")
    // 23:30 UTC on the 1st is 00:30 on the 2nd in Paris.
    var article = Self.article
    article.publishedAt = Date(timeIntervalSince1970: 1_793_575_800)
    var paris = IgnoreFilter([rule], timeZone: try #require(TimeZone(identifier: "Europe/Paris")))
    var gmt = IgnoreFilter([rule], timeZone: .gmt)
    let inParis = paris.ignores(article)
    let inGMT = gmt.ignores(article)
    #expect(inParis)
    #expect(!inGMT)
  }

  @Test("a rule that cannot be used says why, and matches nothing")
  func problems() {
    #expect(IgnoreRule(field: .title, pattern: "  ").problem == "has an empty pattern")
    let bad = IgnoreRule(field: .title, pattern: "(", isRegex: true)
    #expect(bad.problem?.contains("not a regular expression") == true)
    var filter = IgnoreFilter([bad], timeZone: .gmt)
    #expect(filter.isEmpty)
    let ignored = filter.ignores(Self.article)
    #expect(!ignored)
    #expect(IgnoreRule(field: .title, pattern: "x").problem == nil)
  }

  @Test("config.json's ignore list is read, and each mistake names its rule")
  func configFile() throws {
    let file = try FeedConfigFile.parse(
      Data(#"{"ignore": [{"title": "a b"}, {"text": "x|y", "regex": true, "source": "hn"}]}"#.utf8),
      path: "c.json")
    #expect(file.sources.isEmpty)
    #expect(
      file.ignore == [
        IgnoreRule(field: .title, pattern: "a b"),
        IgnoreRule(field: .text, pattern: "x|y", isRegex: true, source: "hn"),
      ])
    for (text, field) in [
      (#"{"ignore": {}}"#, "ignore"), (#"{"ignore": [1]}"#, "ignore[0]"),
      (#"{"ignore": [{"title": "a", "text": "b"}]}"#, "ignore[0]"),
      (#"{"ignore": [{"title": "("}, {"title": "(", "regex": true}]}"#, "ignore[1]"),
      (#"{"ignore": [{"title": "a", "regex": 1}]}"#, "ignore[0].regex"),
    ] {
      #expect {
        try FeedConfigFile.parse(Data(text.utf8), path: "c.json")
      } throws: { error in
        guard case .invalidConfigFile(_, _, let named, _) = error as? ConfigurationError else {
          return false
        }
        return named == field
      }
    }
  }
}
