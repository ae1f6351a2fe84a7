import Foundation
import TestSupport
import Testing

@testable import NewsCore

/// What a user types to name articles, several at once (`news read 3 story-id https://…`).
@Suite("article references: several at once, each as one alone would be")
struct ArticleReferenceTests {
  let directory = TemporaryDirectory()

  func store() throws -> ArticleStore {
    let store = ArticleStore(
      store: EncryptedStore.testing(in: directory.url, key: 5),
      now: { Date(timeIntervalSince1970: 1_000_000) })
    let stored = (1...5).map {
      Article(
        id: "site.example-story-\($0)", provider: "blog", title: "Story \($0)",
        url: "https://site.example/story/\($0)")
    }
    try store.keep(stored, provider: "blog")
    // The last list showed story 2 under another title: its copy is the one meant.
    var listing = Listing(
      key: "search", provider: "search", ids: ["site.example-story-2", "site.example-story-4"],
      totalResults: 2, fetchedAt: Date(timeIntervalSince1970: 1_000_000))
    var shown = stored[1]
    shown.title = "Story 2, as shown"
    listing.articles = [shown, stored[3]]
    _ = try store.setLastListing(listing)
    return store
  }

  @Test("full ids, numbers, prefixes and URLs, in the order given, as resolve gives each")
  func mixed() throws {
    let store = try store()
    let references = [
      "site.example-story-5", "1", "site.example-story-2", "https://site.example/story/3",
      "site.example-story-1", "https://elsewhere.example/new", "2",
    ]
    let all = try ArticleReference.resolveAll(references, in: store)
    let alone = try references.map { try ArticleReference.resolve($0, in: store) }
    #expect(all == alone)
    #expect(
      all.map(\.title) == [
        "Story 5", "Story 2, as shown", "Story 2, as shown", "Story 3", "Story 1",
        "https://elsewhere.example/new", "Story 4",
      ])
  }

  @Test("a reference that names nothing is the error it is alone")
  func unknown() throws {
    let store = try store()
    #expect(throws: LookupError.notFound("nothing-here")) {
      try ArticleReference.resolveAll(["site.example-story-1", "nothing-here"], in: store)
    }
  }
}
