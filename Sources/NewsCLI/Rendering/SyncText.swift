import FeedParsing
import Foundation
import NewsCore

/// `news sync` as text (the JSON is ``SyncJSON``'s): a line a source, its outcome after its name.
enum SyncText {
  /// Each source's line, and whether it failed when asked this run (`--quiet` prints only
  /// those, on standard error: one left alone, failing run after run, was said when it failed).
  static func lines(_ report: SyncReport, now: Date) -> [(line: String, failed: Bool)] {
    let width = (report.sources.map(\.name.count).max() ?? 0) + 2
    return report.sources.map { source in
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
}
