import Testing

@testable import NewsCore

@Suite("Lookup errors")
struct LookupErrorTests {
  @Test(
    "a number past the last list says how long it was, in words that agree with the count",
    arguments: [
      (0, 3, "the last list was empty; there is no number 3"),
      (1, 2, "the last list has 1 article; there is no number 2"),
      (20, 99, "the last list has 20 articles; there is no number 99"),
    ])
  func pastTheEnd(count: Int, index: Int, message: String) {
    let error = LookupError.indexOutOfRange(index: index, count: count)
    #expect(error.message == message)
    #expect(error.exitCode == .usage)
  }
}
