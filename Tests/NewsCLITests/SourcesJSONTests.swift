import Foundation
import Testing

@testable import NewsCLI
@testable import NewsCore

@Suite("news sources --json written a few hundred sources at a time")
struct SourcesJSONTests {
  func rows(_ count: Int) -> [(FeedSource, FeedService.LastFetch)] {
    (0..<count).map { index in
      var source = FeedSource(
        name: "feed-\(index)", url: URL(string: "https://site\(index).example/feed.xml")!,
        ttl: .seconds(900), adapter: SyndicationAdapter())
      source.tags = index % 3 == 0 ? ["tech", "daily \"news\""] : []
      let fetched = index % 5 == 0 ? nil : Date(timeIntervalSince1970: 1_000_000 + Double(index))
      return (
        source,
        FeedService.LastFetch(
          fetchedAt: fetched, error: index % 7 == 0 ? "source feed-\(index): damaged" : nil,
          next: NextFetch(
            at: fetched.map { $0 + 3_600 },
            reason: fetched == nil ? .neverFetched : .posts(every: 7_200),
            interval: 3_600, postsEvery: 7_200))
      )
    }
  }

  @Test(
    "the pieces make the document the whole tree makes, byte for byte",
    arguments: [(0, false), (0, true), (1, false), (3, true), (2_000, true)])
  func sameDocument(count: Int, withProviders: Bool) {
    let providers =
      withProviders
      ? [
        ProviderStatus(
          name: "newsapi", url: URL(string: "https://newsapi.org/v2")!, enabled: false,
          missing: "NEWS_API_KEY", fetchedAt: nil, error: nil)
      ] : []
    let rows = rows(count)
    let failures = ["feed-1": FeedFailures.Failure(since: 5, last: 9, error: "timed out", count: 2)]
    var pieces: [String] = []
    SourcesJSON.write(providers: providers, rows: rows, failures: failures) { pieces.append($0) }
    let whole = SourcesJSON.document(providers: providers, rows: rows, failures: failures)
    #expect(pieces.joined() == whole.serialized(pretty: true, ending: "\n"))
    // 2,000 sources come in several pieces, none of them the whole.
    #expect((pieces.count > 1) == (count == 2_000), "\(pieces.count)")
  }
}
