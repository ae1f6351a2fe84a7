/// The rule for one link carried by several sources: it is **one article**, with one id.
///
/// In a list of several sources the item is shown once, under the first source that lists it
/// (sources in their configured order: the built-in ones, then `config.json`'s), with its title,
/// text and dates; the later sources are named in ``FeedItem/alsoIn`` (JSON `sources`). The order
/// of sources is the configuration's, so the copy shown is the same on every refresh, and the
/// store answers a lookup by id with the same copy (``ArticleStore/providerOrder``).
public enum FeedLinkMerge {
  /// Takes every id after its first occurrence out of `reports`, naming its source on the first.
  /// In place: a report without a repeated id is left as it is (50,000 items of 1,000 feeds are
  /// not copied to find the few links two feeds share).
  public static func merge(_ reports: inout [FeedSourceReport]) {
    var first: [String: (report: Int, item: Int)] = [:]
    for reportIndex in reports.indices {
      var repeated: Set<Int> = []
      for (position, item) in reports[reportIndex].items.enumerated() {
        guard let (report, index) = first[item.id] else {
          first[item.id] = (reportIndex, position - repeated.count)
          continue
        }
        if report != reportIndex, !reports[report].items[index].alsoIn.contains(item.source) {
          reports[report].items[index].alsoIn.append(item.source)
        }
        repeated.insert(position)
      }
      if !repeated.isEmpty {
        let items = reports[reportIndex].items
        reports[reportIndex].items = items.indices.filter { !repeated.contains($0) }.map {
          items[$0]
        }
      }
    }
  }
}
