import Foundation
import Testing

@testable import FeedParsing
@testable import NewsCLI
@testable import NewsCore

@Suite("news sources says when each source is asked next, and why")
struct NextFetchTextTests {
  static let now = Date(timeIntervalSince1970: 1_700_000_000)

  @Test(
    "each reason in words",
    arguments: [
      (
        NextFetch(
          at: now + 3 * 3_600, reason: .posts(every: 9 * 3_600), interval: 9 * 3_600,
          postsEvery: 9 * 3_600),
        "next in 3 h: posts every ~9 h"
      ),
      (
        NextFetch(at: now + 2_400, reason: .hint(.cacheControl), interval: 2_400),
        "next in 40 min: Cache-Control"
      ),
      (
        NextFetch(at: now + 600, reason: .posts(every: 60), interval: 900),
        "next in 10 min: posts every ~60 s (15 min at least)"
      ),
      (
        NextFetch(at: now + 86_400, reason: .posts(every: 30 * 86_400), interval: 86_400),
        "next in 24 h: posts every ~30 d (24 h at most)"
      ),
      (
        NextFetch(at: now + 86_400, reason: .posts(every: 729 * 86_400), interval: 86_400),
        "next in 24 h: posts every ~729 d (24 h at most)"
      ),
      (
        NextFetch(at: now + 86_400, reason: .posts(every: 2_183 * 86_400), interval: 86_400),
        "next in 24 h: posts every ~6 yr (24 h at most)"
      ),
      (
        NextFetch(at: now + 10_692, reason: .ttl, interval: 10_692),
        "next in 3 h: its ttl (3 h)"
      ),
      (
        NextFetch(at: now + 86_400, reason: .posts(every: 913 * 86_400), interval: 86_400),
        "next in 24 h: posts every ~2.5 yr (24 h at most)"
      ),
      (NextFetch(at: now - 5, reason: .ttl, interval: 1_800), "due: its ttl (30 min)"),
      (NextFetch(at: now + 90, reason: .hint(.feedTTL)), "next in 2 min: the feed's <ttl>"),
      (
        NextFetch(at: now + 5_400, reason: .hint(.updatePeriod)),
        "next in 1.5 h: the feed's sy:updatePeriod"
      ),
      (NextFetch(at: now + 60, reason: .hint(.expires)), "next in 60 s: Expires"),
      (NextFetch(at: now + 300, reason: .noDates), "next in 5 min: no dated items to go by"),
      (
        NextFetch(at: now + 3_000, reason: .retryAfter),
        "next in 50 min: the server asked to wait (Retry-After)"
      ),
      (
        NextFetch(at: now + 240, reason: .failing(runs: 3)),
        "next in 4 min: failing (3 runs in a row)"
      ),
      (NextFetch(at: nil, reason: .neverFetched), "asked by the next run"),
      (NextFetch(at: nil, reason: .everyRun), "answered every run"),
      (NextFetch(at: nil, reason: .account), "fetched by its account's sync"),
    ])
  func words(next: NextFetch, expected: String) {
    #expect(NextFetchText.describe(next, now: Self.now) == expected)
  }

  @Test("each reason has the name --json gives it, once")
  func names() {
    let reasons: [NextFetch.Reason] =
      [
        .ttl, .posts(every: 1), .noDates, .retryAfter, .failing(runs: 2), .neverFetched, .everyRun,
        .account,
      ] + FreshnessHint.Kind.allCases.map { .hint($0) }
    let names = reasons.map(NextFetchText.reasonName)
    #expect(Set(names).count == reasons.count)
    #expect(names.contains("cacheControl") && names.contains("posts"))
  }
}
