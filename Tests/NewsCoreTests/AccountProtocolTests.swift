import Foundation
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

@Suite("accounts: the protocols' small parts")
struct AccountProtocolTests {
  @Test(
    "items of a feed sharing a link: one story with one title and dates within twelve hours",
    arguments: [
      ("Episode", 0.0, "Episode", 3_600.0, true), ("Episode", 0, "Episode", nil, true),
      ("Daily", 0, "Daily", 86_400, false), ("Episode 1", 0, "Episode 2", 0, false),
    ] as [(String, Double, String, Double?, Bool)])
  func sameStory(title: String, date: Double, other: String, otherDate: Double?, same: Bool) {
    let one = Article(
      id: "x", provider: "home/f", title: title, publishedAt: Date(timeIntervalSince1970: date))
    let two = Article(
      id: "y", provider: "home/f", title: other,
      publishedAt: otherDate.map { Date(timeIntervalSince1970: $0) })
    #expect(AccountService.sameStory(one, two) == same)
  }

  @Test(
    "MD5 (RFC 1321's test suite), as the Fever API's key needs it",
    arguments: [
      ("", "d41d8cd98f00b204e9800998ecf8427e"),
      ("a", "0cc175b9c0f1b6a831c399e269772661"),
      ("abc", "900150983cd24fb0d6963f7d28e17f72"),
      ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
      ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
      (
        "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
        "57edf4a22be3c955ac49da2e2107b67a"
      ),
      ("ann@example.com:password-of-ann", "de04de4d09bff7919b910afd65fb3833"),
    ])
  func md5(text: String, digest: String) {
    #expect(MD5.hex(text) == digest)
  }

  @Test("a form body percent-encodes all but unreserved characters; names may repeat")
  func formBody() {
    let body = FormBody([
      ("i", "1"), ("i", "2"), ("s", "feed/https://a.example/x?y=1&z"), ("p", "a b+ü"),
    ])
    #expect(
      String(decoding: body.encoded, as: UTF8.self)
        == "i=1&i=2&s=feed%2Fhttps%3A%2F%2Fa.example%2Fx%3Fy%3D1%26z&p=a%20b%2B%C3%BC")
    #expect(
      body
        == FormBody([
          ("i", "1"), ("i", "2"), ("s", "feed/https://a.example/x?y=1&z"), ("p", "a b+ü"),
        ]))
    #expect(body != FormBody([("i", "1")]))
  }

  @Test(
    "Google Reader item ids: long and short forms",
    arguments: [
      ("tag:google.com,2005:reader/item/000000000000001f", "31"),
      ("tag:google.com,2005:reader/item/ffffffffffffffff", "18446744073709551615"),
      ("31", "31"),
    ])
  func itemIDs(long: String, short: String) {
    #expect(GoogleReaderClient.shortID(long) == short)
    if long.hasPrefix("tag:") { #expect(GoogleReaderClient.longID(short) == long) }
  }

  @Test(
    "Fever's ids and flags come as numbers or strings",
    arguments: [
      ("1,2, 3", ["1", "2", "3"]), ("", []), ("7", ["7"]),
    ])
  func feverIDs(text: String, ids: [String]) {
    #expect(FeverClient.ids(text) == ids)
    #expect(FeverClient.ids([1, "2"] as [Any]) == ["1", "2"])
    #expect(FeverClient.id(NSNumber(value: 12)) == "12")
    #expect(FeverClient.flag(NSNumber(value: 1)) && FeverClient.flag("1") && !FeverClient.flag(nil))
  }

  @Test(
    "a feed's source name: its title made a slug, unique, kept across renames",
    arguments: [
      ("Hacker News: Front Page", "hacker-news-front-page"),
      ("Ça va — très bien", "ca-va-tres-bien"),
      ("!!!", "feed-12"),
      (String(repeating: "long ", count: 20), "long-long-long-long-long-long-long-long"),
    ])
  func slugs(title: String, slug: String) {
    #expect(AccountState.slug(title, fallback: "feed/12") == slug)
  }

  @Test("names are unique, and a renamed feed keeps its name")
  func names() {
    var state = AccountState()
    state.feeds = [
      AccountFeed(id: "1", title: "News", url: nil, folders: []),
      AccountFeed(id: "2", title: "News", url: nil, folders: []),
    ]
    state.assignNames(account: "home", previous: [])
    #expect(state.feeds.map(\.source) == ["home/news", "home/news-2"])
    let previous = state.feeds
    state.feeds = [
      AccountFeed(id: "2", title: "Renamed", url: nil, folders: []),
      AccountFeed(id: "3", title: "News", url: nil, folders: []),
    ]
    state.assignNames(account: "home", previous: previous)
    #expect(state.feeds.map(\.source) == ["home/news-2", "home/news"])
  }

  @Test("a later mark of an item replaces an earlier one of the same kind only")
  func outboxAppending() {
    let queued = [
      AccountMark(item: "1", change: .read), AccountMark(item: "1", change: .saved),
      AccountMark(item: "2", change: .read),
    ]
    let next = AccountOutbox.appending([AccountMark(item: "1", change: .unread)], to: queued)
    #expect(
      next == [
        AccountMark(item: "1", change: .saved), AccountMark(item: "2", change: .read),
        AccountMark(item: "1", change: .unread),
      ])
  }

  @Test("the store of account items maps article ids back to the server's")
  func itemsMap() {
    var items = AccountItems()
    items.articles = ["31": "example.com-a", "32": "example.com-b"]
    #expect(items.items(of: ["example.com-b", "other"]) == ["example.com-b": ["32"]])
  }

  @Test(
    "a REST API's URLs: its base added once, a folder's index with its slash, the query escaped",
    arguments: [
      (
        "https://cloud.example/", "index.php/apps/news/api/v1-3", "items", [("type", "3")],
        "https://cloud.example/index.php/apps/news/api/v1-3/items?type=3"
      ),
      (
        "https://cloud.example/index.php/apps/news/api/v1-3/", "index.php/apps/news/api/v1-3",
        "feeds", [], "https://cloud.example/index.php/apps/news/api/v1-3/feeds"
      ),
      ("https://host/tt-rss", "api", "", [], "https://host/tt-rss/api/"),
      ("https://host/tt-rss/api/", "api", "", [], "https://host/tt-rss/api/"),
      (
        "https://mf.example", "", "v1/entries", [("changed_after", "1+2/3")],
        "https://mf.example/v1/entries?changed_after=1%2B2%2F3"
      ),
    ] as [(String, String, String, [(String, String)], String)])
  func restURLs(
    account: String, base: String, path: String, query: [(String, String)], url: String
  ) throws {
    let api = AccountAPI(
      account: Account(
        name: "a", kind: .miniflux, url: try #require(URL(string: account)), user: "u"),
      transport: HTTPTransport(
        client: URLSessionHTTPClient(), retryPolicy: RetryPolicy(retries: 0), timing: .test()),
      headers: [:], base: base)
    #expect(api.url(path, query).absoluteString == url)
  }

  @Test(
    "an answer that is not JSON says what came: an HTML page (a login page) or something else",
    arguments: [
      ("  <!DOCTYPE html><html>", "an HTML page, not JSON"), ("Forbidden", "not JSON"),
    ])
  func notJSON(body: String, detail: String) {
    let response = HTTPResponse(status: 200, body: Data(body.utf8))
    #expect(throws: AccountError.self) { try response.json(account: "a") }
    do {
      _ = try response.json(account: "a")
    } catch let error as AccountError {
      #expect(error.message.hasSuffix(detail) || error.message.contains(detail + " ("))
    } catch {
      Issue.record("\(error)")
    }
  }

  @Test(
    "dates of the REST APIs: with and without fractions, with offsets",
    arguments: [
      ("2022-02-17T18:40:00Z", 1_645_123_200.0), ("2022-02-17T18:40:00.250000Z", 1_645_123_200.25),
      ("2022-02-17T19:40:00+01:00", 1_645_123_200.0),
    ])
  func restDates(text: String, seconds: Double) {
    #expect(AccountAPI.date(text)?.timeIntervalSince1970 == seconds)
    #expect(AccountAPI.date("yesterday") == nil)
  }
}
