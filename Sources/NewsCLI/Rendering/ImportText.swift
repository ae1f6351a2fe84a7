import FeedParsing
import NewsCore

/// `news import newsboat` as text: what was carried, counted, then every line not carried with
/// where it is and why.
enum ImportText {
  static func lines(
    _ plan: NewsboatImport, dryRun: Bool, state: NewsboatCache.Outcome? = nil,
    demoSources: [String] = []
  ) -> [String] {
    let verb = dryRun ? "would import" : "imported"
    var lines = [
      "\(verb) from \(TerminalSanitizer.clean(plan.directory)): "
        + [
          plan.sourceCount.counted("source"), plan.tagCount.counted("tag"),
          plan.searchCount.counted("saved search", plural: "saved searches"),
          plan.ignoreRules.count.counted("ignore rule"),
          plan.count(.keys).counted("key"), plan.count(.colors).counted("colour"),
          plan.count(.highlights).counted("highlight"), plan.count(.commands).counted("command"),
          "\(plan.cache?.items.count ?? 0) articles' state",
        ].joined(separator: ", ")
        + (plan.existing > 0 ? " (\(plan.existing) there already)" : "")
        + (dryRun ? "; nothing changed (--dry-run)" : "")
    ]
    if let state {
      lines.append(
        "cache.db: \(state.read.counted("article")) marked read, \(state.bookmarked) bookmarked, "
          + "\(state.kept) kept that were not here"
          + (state.leftOut > 0 ? ", \(state.leftOut) left out (their feed is no source)" : ""))
    }
    if dryRun {
      for line in plan.lines where line.carried {
        lines.append("  \(place(line)): \(TerminalSanitizer.clean(line.outcome))")
      }
    }
    let left = plan.lines.filter { !$0.carried }
    if !left.isEmpty {
      lines.append("not carried (\(left.count)):")
      for line in left {
        let text =
          line.text.isEmpty ? "" : " " + TerminalSanitizer.clean(String(line.text.prefix(60)))
        lines.append("  \(place(line))\(text): \(TerminalSanitizer.clean(line.outcome))")
      }
    }
    if !demoSources.isEmpty {
      // A migrant's news is their feeds: the demo sources of the exercise news began as are
      // asked by every feed and sync until turned off.
      lines.append(Self.demoLine(demoSources))
    }
    return lines
  }

  /// The line saying the demo sources `names` are still on, and how to turn them off.
  static func demoLine(_ names: [String]) -> String {
    "the demo sources \(names.joined(separator: ", ")) are on too (their hosts may be gone): "
      + "for name in \(names.joined(separator: " ")); do news sources set $name --disable; done"
  }

  private static func place(_ line: NewsboatImport.Line) -> String {
    line.number > 0 ? "\(line.file):\(line.number)" : line.file
  }
}
