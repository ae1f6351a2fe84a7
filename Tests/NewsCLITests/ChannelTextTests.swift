import Foundation
import NewsCore
import Testing

@testable import NewsCLI

@Suite("a channel's heading and status are values NewsCore returns and the reader words")
struct ChannelTextTests {
  static let now = Date(timeIntervalSince1970: 1_800_000_000)
  static let fiveMinutesAgo = now.addingTimeInterval(-300)

  @Test(
    "headings",
    arguments: [
      (ChannelHeading.provider("Top headlines · us"), "Top headlines · us"),
      (.source("hn"), "Source hn"), (.bookmarks, "Bookmarks"), (.allUnread, "All unread"),
      (.tag("tech"), "Tag tech"),
    ])
  func headings(heading: ChannelHeading, text: String) {
    #expect(heading.text == text)
  }

  @Test(
    "statuses",
    arguments: [
      (ChannelStatus.fresh, "fresh"), (.stored, "stored"), (.neverFetched, "never fetched"),
      (.failing("source x: HTTP 500"), "source x: HTTP 500"),
      (.unreadable("damaged"), "unreadable: damaged"),
      (.feed(.cached, fetchedAt: fiveMinutesAgo), "cached, 5m ago"),
      (.feed(.fresh, fetchedAt: fiveMinutesAgo), "fresh"),
      (.list(.fresh, fetchedAt: fiveMinutesAgo), "fresh"),
      (.list(.offline, fetchedAt: fiveMinutesAgo), "stored 5m ago"),
      (.list(.stale("offline"), fetchedAt: fiveMinutesAgo), "stored 5m ago (offline)"),
    ])
  func statuses(status: ChannelStatus, text: String) {
    #expect(status.text(now: Self.now) == text)
    #expect(status.failed == (text == "source x: HTTP 500"))
  }
}
