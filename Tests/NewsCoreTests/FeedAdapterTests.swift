import Foundation
import TestSupport
import Testing

@testable import FeedParsing
@testable import NewsCore

@Suite("Feed adapters")
struct FeedAdapterTests {
  @Test("source A: the real sample")
  func sourceA() throws {
    let items = try StoriesAdapter().items(
      from: Fixtures.data("source_a.readme-sample.json"), source: "a")
    #expect(items.count == 1)
    #expect(items[0].title == "Interesting News!")
    #expect(items[0].description == "You're not gonna believe this...")
    #expect(items[0].imageURL?.hasPrefix("https://pbs.twimg.com/") == true)
    #expect(items[0].id.hasPrefix("a-") && items[0].id.count == 8)
  }

  @Test("source B: the real sample, with its aticleId spelling")
  func sourceB() throws {
    let items = try InnerDataAdapter().items(
      from: Fixtures.data("source_b.readme-sample.json"), source: "b")
    #expect(items.map(\.title) == ["WOW"])
    #expect(items[0].description == "SHIGAON")
    #expect(items[0].imageURL == "https://pbs.twimg.com/profile_images/2084187780/avib_400x400.jpg")
  }

  @Test("source C: subLine1 and subline2 joined as given")
  func sourceC() throws {
    let items = try TopLineAdapter().items(
      from: Fixtures.data("source_c.readme-sample.json"), source: "c")
    #expect(items.map(\.title) == ["Latest article"])
    #expect(items[0].description == "And here is the subtitle!")
  }

  static let adapters: [(String, any FeedAdapter)] = [
    ("a", StoriesAdapter()), ("b", InnerDataAdapter()), ("c", TopLineAdapter()),
  ]

  @Test(
    "empty lists, missing optional fields and extra fields are fine",
    arguments: [
      ("a", #"{"stories":[]}"#, 0), ("b", #"{"metadata":{"innerdata":[]}}"#, 0), ("c", "[]", 0),
      ("a", #"{"stories":[{"title":"T","extra":1}],"more":true}"#, 1),
      ("b", #"{"metadata":{"innerdata":[{"articlewrapper":{"header":"H"}}]}}"#, 1),
      ("c", #"[{"topLine":"T"},{"subLine1":"no title"}]"#, 1),
    ])
  func lenient(source: String, body: String, count: Int) throws {
    let adapter = try #require(Self.adapters.first { $0.0 == source }?.1)
    let items = try adapter.items(from: Data(body.utf8), source: source)
    #expect(items.count == count)
    #expect(items.allSatisfy { $0.description == nil && $0.imageURL == nil })
  }

  @Test(
    "wrong types are a clear error for that source",
    arguments: [
      ("a", #"{"stories":[{"title":5}]}"#, "stories[0].title"),
      ("b", #"{"metadata":{"innerdata":{}}}"#, "metadata.innerdata"),
      ("c", #"{"topLine":"x"}"#, "(top level)"), ("a", "not json", "not valid JSON"),
      ("b", #"{}"#, "metadata"),
    ])
  func wrongTypes(source: String, body: String, mention: String) throws {
    let adapter = try #require(Self.adapters.first { $0.0 == source }?.1)
    #expect {
      try adapter.items(from: Data(body.utf8), source: source)
    } throws: { error in
      guard let error = error as? FeedError, case .undecodable(let named, let detail) = error else {
        return false
      }
      return named == source && detail.contains(mention)
    }
  }

  @Test("JSON paths reproduce the typed adapters on the real shapes")
  func jsonPaths() throws {
    let b = JSONPathAdapter(
      items: "metadata.innerdata", title: ["articlewrapper.header"],
      subtitle: ["articlewrapper.description"], imageURL: ["picture"])
    #expect(
      try b.items(from: Fixtures.data("source_b.readme-sample.json"), source: "b")
        == InnerDataAdapter().items(from: Fixtures.data("source_b.readme-sample.json"), source: "b")
    )
    let c = JSONPathAdapter(
      items: "", title: ["topLine"], subtitle: ["subLine1", "subline2"], imageURL: ["image"])
    #expect(
      try c.items(from: Fixtures.data("source_c.readme-sample.json"), source: "c")
        == TopLineAdapter().items(from: Fixtures.data("source_c.readme-sample.json"), source: "c"))
  }

  @Test("JSON paths report what is not a list or not a string")
  func jsonPathErrors() {
    let adapter = JSONPathAdapter(items: "data", title: ["t"])
    #expect(throws: FeedError.self) {
      try adapter.items(from: Data(#"{"data":{}}"#.utf8), source: "d")
    }
    #expect(throws: FeedError.self) {
      try adapter.items(from: Data(#"{"data":[{"t":{}}]}"#.utf8), source: "d")
    }
    #expect(throws: FeedError.self) { try adapter.items(from: Data("[".utf8), source: "d") }
  }

  @Test("item ids are stable and differ by title and image")
  func ids() {
    let one = FeedItem(feed: "b", title: "WOW", description: nil, imageURL: "x")
    #expect(one?.id == FeedItem(feed: "b", title: "WOW", description: "other", imageURL: "x")?.id)
    #expect(one?.id != FeedItem(feed: "b", title: "WOW", description: nil, imageURL: "y")?.id)
    // A title that is blank once cleaned of HTML makes no item (found by fuzzing).
    #expect(FeedItem(feed: "b", title: "<z<<<<F<<<<>", description: nil, imageURL: nil) == nil)
    #expect(FeedItem(feed: "b", title: " <b> </b>", description: "s", imageURL: nil) == nil)
    #expect(one?.id.count == "b-".count + 6)
  }

  @Test(
    "regression (fuzzing): a title blank as it is or once cleaned of HTML skips the item",
    arguments: ["fuzz/feed-blank-title.json", "fuzz/feed-html-blank-title.json"])
  func blankTitle(fixture: String) throws {
    let adapter = JSONPathAdapter(
      items: "data.list", title: ["t", "u"], subtitle: ["s"], imageURL: ["i.0"])
    let items = try adapter.items(from: Fixtures.data(fixture), source: "z")
    #expect(items.isEmpty)
  }
}
