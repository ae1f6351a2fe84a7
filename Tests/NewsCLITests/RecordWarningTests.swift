import Foundation
import TestSupport
import Testing

@testable import NewsCLI

/// What stored state that cannot be read or written costs is said, never dropped silently (#46.4).
@Suite("stored state never dropped silently")
struct RecordWarningTests {
  let harness: Harness

  init() throws {
    harness = try Harness()
    harness.server.route("/v2/top-headlines", .fixture("top-headlines-us-2022-02-17.json"))
  }

  @Test("listings that cannot be read are said on each provider, never taken for \"never fetched\"")
  func providersOverDamagedListings() async throws {
    await harness.succeed(["headlines"])
    let right = try await harness.run(["sources", "--json"]).json()
    let listed = try #require(right["sources"] as? [[String: Any]])
    #expect(listed.first { $0["name"] as? String == "newsapi" }?["status"] as? String == "fetched")
    let file = harness.home.url.appendingPathComponent("news/listings.enc")
    var bytes = try Data(contentsOf: file)
    bytes[bytes.count - 1] ^= 1
    try bytes.write(to: file)
    let result = await harness.run(["sources", "--json"])
    #expect(result.code == .success, "\(result.err)")
    let sources = try #require(try result.json()["sources"] as? [[String: Any]])
    let newsapi = try #require(sources.first { $0["name"] as? String == "newsapi" })
    #expect(newsapi["status"] as? String == "damaged")
    #expect((newsapi["error"] as? String)?.isEmpty == false)
    let text = await harness.run(["sources"])
    #expect(text.out.contains("store unreadable"))
  }

  @Test("a record of failing sources that cannot be written is a warning saying what it costs")
  func failuresRecord() async throws {
    harness.server.route("/down.xml") { _ in
      LoopbackServer.Response(status: 500, body: Data("down".utf8))
    }
    let base = harness.server.baseURL.absoluteString
    let off = ["a", "b", "c", "articles", "bbc", "newsapi"].map {
      #"{"name": "\#($0)", "enabled": false}"#
    }
    let config = try harness.home.write(
      "config.json",
      #"{"sources": [\#(off.joined(separator: ", ")), {"name": "down", "url": "\#(base)/down.xml"}]}"#
    )
    let environment: [String: String?] = ["NEWS_CONFIG": config, "NEWS_RETRIES": "0"]
    let first = await harness.run(["feed", "--refresh"], environment: environment)
    #expect(!first.err.contains("not recorded"), "\(first.err)")
    let file = harness.home.url.appendingPathComponent("news/failures.enc")
    var bytes = try Data(contentsOf: file)
    bytes[bytes.count - 1] ^= 1
    try bytes.write(to: file)
    let second = await harness.run(["feed", "--refresh"], environment: environment)
    #expect(second.err.contains("which sources fail not recorded"), "\(second.err)")
    #expect(second.err.contains("the list of failing sources may be out of date"))
  }
}
