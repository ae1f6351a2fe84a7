import FeedParsing
import Foundation
import NewsCore

/// `news sync` as text (the JSON is ``SyncJSON``'s): a line a source, its outcome after its name.
enum SyncText {
  /// Each source's line, and whether it failed when asked this run (`--quiet` prints only
  /// those, on standard error: one left alone, failing run after run, was said when it failed).
  /// Past ``SourceName/namedAtMost`` sources not due, the rest are one line at the end, and so
  /// are the failures past it (a cron job of 10,000 feeds, most of them not due, is not 10,000
  /// lines, nor its mail when the network is down).
  static func lines(_ report: SyncReport, now: Date) -> [(line: String, failed: Bool)] {
    let width = (report.sources.map(\.name.count).max() ?? 0) + 2
    var (notDue, failed, failedAsked) = (0, 0, false)
    var lines: [(line: String, failed: Bool)] = []
    for source in report.sources {
      if source.status == .ok, !source.asked {
        notDue += 1
        if notDue > SourceName.namedAtMost { continue }
      } else if source.status == .failed {
        failed += 1
        if failed > SourceName.namedAtMost {
          failedAsked = failedAsked || source.asked
          continue
        }
      }
      lines.append(line(source, width: width, now: now))
    }
    if notDue > SourceName.namedAtMost {
      let more = (notDue - SourceName.namedAtMost).counted("more source")
      lines.append((more + " not due (news sources says when each is asked next)", false))
    }
    if failed > SourceName.namedAtMost {
      let more = (failed - SourceName.namedAtMost).counted("more source")
      lines.append((more + " failed (news sources --failing says why)", failedAsked))
    }
    return lines
  }

  private static func line(_ source: SyncSourceReport, width: Int, now: Date) -> (
    line: String, failed: Bool
  ) {
    let outcome: String
    switch source.status {
    case .ok where !source.asked:
      outcome =
        "not due (\(source.total) total)"
        + (source.next.map { "; " + NextFetchText.describe($0, now: now) } ?? "")
    case .ok: outcome = "ok \(source.new) new (\(source.total) total)"
    case .failed:
      // The line names the source: its message's `source a: ` would say it twice.
      let error = SourceMessage.withoutName(source.error ?? "unknown error", of: source.name)
      outcome = "failed: \(TerminalSanitizer.clean(error))"
    case .skipped: outcome = "skipped (\(source.error ?? "not configured"))"
    }
    return (source.name.padding(to: width) + outcome, source.status == .failed && source.asked)
  }
}
