import Testing

@testable import NewsCore

/// What an error about an unknown source says of the sources there are.
@Suite("the sources an unknown name's error lists")
struct SourceListingTests {
  @Test("a few are listed whole, in their order")
  func few() {
    #expect(SourceName.listing(["a", "b", "c"], near: "x") == "the sources are a, b, c")
  }

  @Test("among many, the ten nearest the name typed, ties in their order, and how many in all")
  func many() {
    let names = ["a", "b", "c"] + (1...10_000).map { "feed-\($0)" }
    let listing = SourceName.listing(names, near: "feed-12x")
    #expect(
      listing
        == "the 10 nearest of 10003 sources are feed-12, "
        + (120...128).map { "feed-\($0)" }.joined(separator: ", "))
    #expect(listing.utf8.count < 200, "a line, not every name")
  }
}
