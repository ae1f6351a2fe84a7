import NewsCore

/// What `news sources export` says on standard error, the OPML on standard output left whole:
/// the sources of one's own that no other reader could read, left out, and those written in part.
enum ExportText {
  /// One warning for the sources left out (each with why), one for the filters left behind;
  /// none when everything went out. The built-in demo sources are not the reader's own.
  static func warnings(_ sources: [FeedSource]) -> [String] {
    var leftOut: [String] = []
    var unfiltered: [String] = []
    for source in sources where !SourceName.builtInFeeds.contains(source.name) {
      if SubscriptionService.exportable(source) {
        if source.command?.kind == .filter { unfiltered.append(source.name) }
      } else {
        leftOut.append("\(source.name) (\(why(source)))")
      }
    }
    var warnings: [String] = []
    if !leftOut.isEmpty {
      warnings.append("left out of the export: " + leftOut.joined(separator: ", "))
    }
    if !unfiltered.isEmpty {
      warnings.append(
        "exported at their feeds' addresses, without their filter commands: "
          + unfiltered.joined(separator: ", "))
    }
    return warnings
  }

  /// Why `source` has no place in OPML.
  private static func why(_ source: FeedSource) -> String {
    if source.search != nil { return "a saved search" }
    if source.command?.kind == .exec { return "a command's output" }
    if source.account != nil { return "its server gives no feed address" }
    return "read by selectors or a mapping, which other readers do not have"
  }
}
