import Foundation
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

@Suite("Articles API and BBC headlines")
struct ProvidersTests {
  let fetchedAt = Date(timeIntervalSince1970: 1_700_000_000)

  @Test("the real articles sample: 60 articles, newest release first, ids articles-<id>")
  func articles() throws {
    let page = try ArticlesDecoder.decode(Fixtures.data("articles.json"), fetchedAt: fetchedAt)
    #expect(page.articles.count == 60)
    #expect(page.provider == "articles")
    let dates = page.articles.compactMap(\.publishedAt)
    #expect(dates == dates.sorted(by: >))
    let first = try #require(page.articles.first(where: { $0.id == "articles-1" }))
    #expect(first.title == "Realigned multimedia framework")
    #expect(first.author == "sfolley0@nhs.uk")
    #expect(first.publishedAt.map(ISO8601.string(from:)) == "2018-06-25T00:00:00Z")
  }

  @Test("unparseable release dates go last, the items kept in their order")
  func undated() throws {
    let body = """
      [{"id":1,"title":"Old","release_date":"1/2/2018"},{"id":"x","title":"Bad","release_date":"soon"},
       {"id":3,"title":"New","release_date":"12/31/2020"},{"id":4,"title":"None"}]
      """
    let page = try ArticlesDecoder.decode(Data(body.utf8), fetchedAt: fetchedAt)
    #expect(page.articles.map(\.id) == ["articles-3", "articles-1", "articles-x", "articles-4"])
  }

  @Test(
    "release dates M/d/yyyy",
    arguments: [
      ("6/25/2018", "2018-06-25T00:00:00Z"), ("12/1/2019", "2019-12-01T00:00:00Z"),
      ("02/29/2020", "2020-02-29T00:00:00Z"), ("1/1/1970", "1970-01-01T00:00:00Z"),
      ("2/29/2019", nil), ("13/1/2020", nil), ("0/10/2020", nil), ("6/25/18", nil), ("", nil),
      ("a/b/cccc", nil), ("6-25-2018", nil), ("6/25/2018/1", nil),
    ])
  func releaseDates(text: String, expected: String?) {
    #expect(ArticlesDecoder.releaseDate(text).map(ISO8601.string(from:)) == expected)
  }

  @Test("a wrong shape is a data error naming the field")
  func articlesWrongShape() {
    #expect(throws: ProviderError.undecodable(provider: "articles", detail: "not valid JSON")) {
      try ArticlesDecoder.decode(Data("{".utf8), fetchedAt: fetchedAt)
    }
    #expect {
      try ArticlesDecoder.decode(Data(#"[{"id":true}]"#.utf8), fetchedAt: fetchedAt)
    } throws: { error in
      (error as? ProviderError)?.exitCode == .dataError
    }
  }

  @Test(
    "BBC real samples decode, ids are bbc-<stable hash>",
    arguments: ["headlines.json", "headlines-enhanced.json"])
  func bbc(file: String) throws {
    let page = try BBCDecoder.decode(Fixtures.data(file), fetchedAt: fetchedAt)
    #expect(page.articles.count >= 3)
    let first = try #require(page.articles.first)
    #expect(first.title == "Rare angel sharks found living off Wales")
    #expect(first.id == "bbc-" + StableHash.hex("Rare angel sharks found living off Wales"))
    #expect(first.publishedAt == Date(timeIntervalSince1970: 1_448_401_928))
    #expect(first.description?.hasPrefix("Scientists have found") == true)
  }

  @Test("BBC: an item without a headline is skipped; a wrong type is an error")
  func bbcShapes() throws {
    let page = try BBCDecoder.decode(
      Data(#"{"headlines":[{"updated":0},{"headline":"H","updated":0}]}"#.utf8),
      fetchedAt: fetchedAt)
    #expect(page.articles.map(\.title) == ["H"])
    #expect(throws: ProviderError.self) {
      try BBCDecoder.decode(Data(#"{"headlines":[{"headline":1}]}"#.utf8), fetchedAt: fetchedAt)
    }
  }

  @Test(
    "BBC days in UTC, across edge dates",
    arguments: [
      (0.0, "1 January 1970"), (-1, "31 December 1969"), (951_782_400, "29 February 2000"),
      (1_582_934_400, "29 February 2020"), (946_684_799, "31 December 1999"),
      (946_684_800, "1 January 2000"), (1_448_401_928, "24 November 2015"),
      (-2_208_988_800, "1 January 1900"),
    ])
  func bbcDays(seconds: Double, expected: String) {
    #expect(DayFormat.long(Date(timeIntervalSince1970: seconds)) == expected)
  }

  @Test(
    "articles release dates read like Wed, Jul 8, '20",
    arguments: [
      ("7/8/2020", "Wed, Jul 8, '20"), ("6/25/2018", "Mon, Jun 25, '18"),
      ("1/1/2000", "Sat, Jan 1, '00"), ("12/31/1999", "Fri, Dec 31, '99"),
      ("2/29/2024", "Thu, Feb 29, '24"),
    ])
  func compactDates(text: String, expected: String) throws {
    let date = try #require(ArticlesDecoder.releaseDate(text))
    #expect(DayFormat.compact(date) == expected)
  }

  @Test("regression (fuzzing): an absurd BBC timestamp is treated as absent, not a crash")
  func hugeTimestamp() throws {
    let page = try BBCDecoder.decode(
      Fixtures.data("fuzz/bbc-huge-timestamp.json"), fetchedAt: fetchedAt)
    // (Its absurd item shares a headline with an earlier one: the first is kept.)
    #expect(!page.articles.isEmpty)
    for article in page.articles { _ = article.publishedAt.map(DayFormat.long) }
    #expect(BBCDecoder.date(1e300) == nil)
    #expect(BBCDecoder.date(-1e12) == nil)
  }

  @Test(
    "calendar formatting is total: no Date can make it overflow",
    arguments: [1e300, -1e300, Double.infinity, -Double.infinity, Double.nan, 1e15])
  func absurdDates(seconds: Double) {
    let date = Date(timeIntervalSince1970: seconds)
    #expect(!DayFormat.long(date).isEmpty)
    #expect(!ISO8601.string(from: date).isEmpty)
    #expect(!RelativeTime.describe(date, now: fetchedAt).isEmpty)
  }
}
