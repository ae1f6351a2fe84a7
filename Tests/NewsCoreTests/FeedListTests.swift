import Foundation
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

@Suite("the feed as a list: merged, read state, unread only, the limit, the last list")
struct FeedListTests {
  let directory = TemporaryDirectory()

  func lists() throws -> ListService {
    let store = ArticleStore(
      store: EncryptedStore.testing(in: directory.url, key: 3),
      now: { Date(timeIntervalSince1970: 1_000_000) })
    let configuration = try Configuration(environment: ["HOME": directory.url.path])
    return ListService(
      store: store,
      context: ProviderContext(
        configuration: configuration,
        transport: HTTPTransport(
          client: UnimplementedHTTPClient(), retryPolicy: RetryPolicy(), timing: .test()),
        now: { Date(timeIntervalSince1970: 1_000_000) }, timeZone: .gmt))
  }

  func report(_ name: String, _ links: [String]) -> FeedSourceReport {
    FeedSourceReport(
      name: name, url: URL(string: "https://\(name).example/feed")!, status: .fresh,
      fetchedAt: nil, expiresAt: nil, error: nil,
      items: links.compactMap {
        FeedItem(
          feed: name, title: "\(name) \($0)", description: nil, imageURL: nil,
          url: "https://example.com/\($0)")
      }, attempts: 1, newItems: 0)
  }

  @Test(
    "one link one item, in place: repeats within a source and across sources, in order",
    arguments: [
      ([["1", "2", "3"], ["4", "5"]], [["1", "2", "3"], ["4", "5"]], [[], [], [], [], []]),
      ([["1", "2", "1"], ["2", "3", "2"]], [["1", "2"], ["3"]], [[], ["b"], []]),
      ([["1"], ["1", "2"], ["2", "1"]], [["1"], ["2"], []], [["b", "c"], ["c"]]),
    ] as [([[String]], [[String]], [[String]])])
  func merged(links: [[String]], kept: [[String]], alsoIn: [[String]]) {
    let reports = zip(["a", "b", "c"], links).map { report($0, $1) }
    var packs = reports.map { FeedItemPack($0.items) }
    let later = FeedLinkMerge.merge(&packs, names: reports.map(\.name))
    #expect(packs.map { $0.ids.map { String($0.dropFirst("example.com-".count)) } } == kept)
    #expect(packs.flatMap { $0.ids.map { later[$0] ?? [] } } == alsoIn)
    // The copy kept is the first source's.
    #expect(
      zip(reports, packs).allSatisfy { report, pack in
        pack.items.allSatisfy { $0.feed == report.name && $0.title.hasPrefix(report.name) }
      })
  }

  @Test(
    "read marks, unread counts, --unread and --limit across sources",
    arguments: [(false, nil, 5), (true, nil, 3), (false, 2, 2), (true, 1, 1)] as [(Bool, Int?, Int)]
  )
  func shaped(unreadOnly: Bool, limit: Int?, shown: Int) throws {
    let lists = try lists()
    try lists.store.markRead(["example.com-2", "example.com-4"])
    let reports = [report("a", ["1", "2", "3"]), report("b", ["3", "4", "5"])]
    let result = lists.feed(reports, unreadOnly: unreadOnly, limit: limit)
    #expect(result.items.count == shown)
    // "3" is in both: listed once, under a, naming b.
    #expect(result.unread == ["a": 2, "b": 1])
    if let shared = result.reports[0].items.first(where: { $0.id == "example.com-3" }) {
      #expect(shared.alsoIn == ["b"])
    }
    #expect(result.reports[1].items.allSatisfy { $0.id != "example.com-3" })
    #expect(
      result.read == Set(result.items.map(\.id)).intersection(["example.com-2", "example.com-4"]))
    #expect(result.cutByLimit.isEmpty == (limit == nil || limit! >= (unreadOnly ? 3 : 5)))
    #expect(result.warnings.isEmpty)
    try lists.keep(result)
    #expect(try lists.store.lastListing()?.listing.ids == result.items.map(\.id))
  }
}
