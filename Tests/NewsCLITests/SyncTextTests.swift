import Foundation
import Testing

@testable import NewsCLI
@testable import NewsCore

/// `news sync` as text at many sources: a line a source up to ten of a kind, then one line.
@Suite("sync's text at many sources")
struct SyncTextTests {
  static func source(_ name: String, _ status: SyncSourceStatus, asked: Bool) -> SyncSourceReport {
    var source = SyncSourceReport(
      name: name, status: status, new: 0, total: 3,
      error: status == .failed ? "source \(name): cannot reach it" : nil, attempts: 1)
    source.asked = asked
    return source
  }

  @Test(
    "ten not due and ten failed each get a line; the rest one line each kind, a failure's failed if any was asked"
  )
  func collapsed() {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let sources =
      (1...12).map { Self.source("idle-\($0)", .ok, asked: false) }
      + [Self.source("fresh", .ok, asked: true)]
      + (1...11).map { Self.source("down-\($0)", .failed, asked: $0 == 11) }
    let lines = SyncText.lines(
      SyncReport(startedAt: now, finishedAt: now, sources: sources), now: now)
    #expect(lines.count == 10 + 1 + 10 + 2)
    #expect(lines.filter { $0.line.contains("not due (3 total)") }.count == 10)
    #expect(lines.filter { $0.line.contains("failed: cannot reach it") }.count == 10)
    #expect(
      lines.contains { $0.line.hasPrefix("fresh ") && $0.line.hasSuffix("ok 0 new (3 total)") })
    #expect(
      lines.suffix(2).map(\.line) == [
        "2 more sources not due (news sources says when each is asked next)",
        "1 more source failed (news sources --failing says why)",
      ])
    #expect(lines.last?.failed == true, "down-11 was asked this run: --quiet prints it")
    #expect(lines.suffix(2).first?.failed == false)
  }

  @Test("a few of each are listed whole")
  func few() {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let sources = (1...10).map { Self.source("idle-\($0)", .ok, asked: false) }
    let lines = SyncText.lines(
      SyncReport(startedAt: now, finishedAt: now, sources: sources), now: now)
    #expect(lines.map(\.line).allSatisfy { $0.contains("not due") })
    #expect(lines.count == 10)
  }
}
