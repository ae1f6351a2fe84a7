import Testing

@testable import FeedParsing

@Suite("A time as a reader writes it: seconds, or a number and s, m, h or d")
struct DurationTextTests {
  @Test(
    "what each spelling is, in seconds; what is no time",
    arguments: [
      ("900", 900), ("0", 0), ("0.5", 0.5), ("90s", 90), ("30m", 1_800), ("1.5h", 5_400),
      ("2d", 172_800), (" 15m ", 900), ("15M", nil), ("15 m", nil), ("-5", nil), ("+5", nil),
      ("1e9", nil), ("inf", nil), ("nan", nil), ("m", nil), ("", nil), ("15w", nil),
      ("1.2.3", nil),
    ] as [(String, Double?)])
  func spellings(text: String, seconds: Double?) {
    #expect(DurationText.seconds(text) == seconds)
  }

  @Test(
    "whole seconds within bounds",
    arguments: [
      ("1.5h", 5_400), ("0.5", nil), ("1d", 86_400), ("2d", nil), ("59s", nil), ("1m", 60),
      ("99999999999999999999d", nil),
    ] as [(String, Int?)])
  func whole(text: String, seconds: Int?) {
    #expect(DurationText.wholeSeconds(text, in: 60...86_400) == seconds)
  }
}
