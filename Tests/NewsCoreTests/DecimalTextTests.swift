import Foundation
import Testing

@testable import FeedParsing

@Suite("One decimal written by hand is what printf's %.1f writes")
struct DecimalTextTests {
  @Test(
    "ties go to the even tenth, binary values a little over or under go their way",
    arguments: [
      (2.25, "2.2"), (2.75, "2.8"), (2.35, "2.4"), (1.15, "1.1"), (0.05, "0.1"), (0.25, "0.2"),
      (9.95, "9.9"), (9.96, "10.0"), (0, "0.0"), (1.5, "1.5"), (47.99, "48.0"),
    ])
  func known(value: Double, expected: String) {
    #expect(DecimalText.oneDecimal(value) == expected)
    #expect(String(format: "%.1f", value) == expected)
  }

  @Test("20,000 drawn values, ties and their neighbours among them, and the formatter's range")
  func drawn() {
    var generator = SeededGenerator(seed: 41)
    for round in 0..<20_000 {
      let value: Double
      switch round % 4 {
      case 0: value = Double.random(in: 0..<100, using: &generator)
      case 1: value = Double(Int.random(in: 0..<2_000, using: &generator)) / 20  // ties
      case 2:
        // A tie's neighbours, a few units in the last place away.
        let tie = Double(Int.random(in: 0..<2_000, using: &generator)) / 20
        value = max(0, tie + Double(Int.random(in: -3...3, using: &generator)) * tie.ulp)
      default: value = Double.random(in: 0..<1e15, using: &generator)
      }
      #expect(DecimalText.oneDecimal(value) == String(format: "%.1f", value), "\(value)")
    }
    for value in [-1.25, .infinity, .nan, 2e14] {
      #expect(DecimalText.oneDecimal(value) == String(format: "%.1f", value))
    }
  }
}
