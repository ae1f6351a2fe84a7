/// The rule for one link carried by several sources: it is **one article**, with one id.
///
/// In a list of several sources the item is shown once, under the first source that lists it
/// (sources in their configured order: the built-in ones, then `config.json`'s), with its title,
/// text and dates; the later sources are named in ``FeedItem/alsoIn`` (JSON `sources`). The order
/// of sources is the configuration's, so the copy shown is the same on every refresh, and the
/// store answers a lookup by id with the same copy (``ArticleStore/providerOrder``).
public enum FeedLinkMerge {
  /// `reports` with every id after its first occurrence taken out, and named on the first.
  public static func merged(_ reports: [FeedSourceReport]) -> [FeedSourceReport] {
    var first: [String: (report: Int, item: Int)] = [:]
    var merged = reports
    for reportIndex in merged.indices {
      var kept: [FeedItem] = []
      kept.reserveCapacity(merged[reportIndex].items.count)
      for item in merged[reportIndex].items {
        if let (report, index) = first[item.id] {
          if report != reportIndex, !merged[report].items[index].alsoIn.contains(item.source) {
            merged[report].items[index].alsoIn.append(item.source)
          }
          continue
        }
        first[item.id] = (reportIndex, kept.count)
        kept.append(item)
      }
      merged[reportIndex].items = kept
    }
    return merged
  }
}
