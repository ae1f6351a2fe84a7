import Foundation

extension ArticleSegments {
  /// The records a commit reads at most (with the one segment that crosses it) to summarize
  /// segments written before summaries: a store of an earlier version gains them over its next
  /// commits, each paying a bounded read once, rather than one command paying for them all.
  static let summaryBudget = 20_000

  /// Gives segments of `manifest` written before summaries (``SegmentInfo/summary``) theirs,
  /// reading their records, until `budget` records were read. A segment that does not read is
  /// left as it is (read, and reported, by the searches that open it).
  func summarizeEarlier(_ manifest: inout SegmentManifest, budget: Int = summaryBudget) {
    // Every segment summarized (all but the first commits after an upgrade): nothing sorted,
    // nothing read, on a commit of a refresh of 10,000 sources.
    guard manifest.providers.values.contains(where: { $0.contains { $0.summary == nil } }) else {
      return
    }
    var left = budget
    for provider in manifest.providers.keys.sorted() {
      for index in manifest.providers[provider]!.indices {
        guard left > 0 else { return }
        let info = manifest.providers[provider]![index]
        guard info.summary == nil,
          let records = try? SegmentReader(info, in: store).records().map(\.record)
        else { continue }
        left -= records.count
        manifest.providers[provider]![index].summary = SegmentSummary(of: records)
      }
    }
  }
}
