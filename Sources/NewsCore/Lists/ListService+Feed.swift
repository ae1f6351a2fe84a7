import Foundation

extension ListService {
  /// The feed as `news feed` shows it, from the sources' `reports`: one link one item
  /// (``FeedLinkMerge``), read state, unread counts, then only unread items with `unreadOnly`,
  /// then at most `limit` items across sources. Marks that cannot be read are a warning. The
  /// items the killfile matches (``IgnoreRule``) are left out and not counted; with
  /// `showIgnored` they are shown, and named in ``FeedListResult/ignored``. The reports are
  /// taken, not copied: a run of 1,000 feeds holds its items once.
  public func feed(
    _ reports: consuming [FeedSourceReport], unreadOnly: Bool, limit: Int?,
    showIgnored: Bool = false
  ) -> FeedListResult {
    var reports = consume reports
    FeedLinkMerge.merge(&reports)
    var ignored: Set<String> = []
    var filter = IgnoreFilter(ignoreRules)
    if !filter.isEmpty {
      for index in reports.indices {
        for item in reports[index].items where filter.ignores(item.article) {
          ignored.insert(item.id)
        }
        if !showIgnored { reports[index].items.removeAll { ignored.contains($0.id) } }
      }
    }
    let ids = reports.flatMap { $0.items.map(\.id) }
    let (marks, warnings) = readMarksOrWarning(of: ids)
    let read = marks.marked(ids)
    var unread: [String: Int] = [:]
    for report in reports {
      unread[report.name] =
        report.items.lazy.filter {
          !read.contains($0.id) && !ignored.contains($0.id)
        }.count
    }
    if unreadOnly {
      for index in reports.indices { reports[index].items.removeAll { read.contains($0.id) } }
    }
    var cut: Set<String> = []
    if let limit {
      var left = limit
      for index in reports.indices {
        if reports[index].items.count > left {
          reports[index].items.removeSubrange(left...)
          cut.insert(reports[index].name)
        }
        left -= reports[index].items.count
      }
    }
    let shown = Set(reports.lazy.flatMap(\.items).map(\.id))
    // Enclosures come with a fetch; items answered from the cache have them from the store.
    var enclosureWarnings: [String] = []
    var lacking: [String] = []
    for report in reports {
      for item in report.items where item.enclosures.isEmpty { lacking.append(item.id) }
    }
    if !lacking.isEmpty {
      do {
        let kept = try store.enclosures(among: lacking)
        if !kept.isEmpty {
          for report in reports.indices {
            for item in reports[report].items.indices {
              if let found = kept[reports[report].items[item].id] {
                reports[report].items[item].enclosures = found
              }
            }
          }
        }
      } catch {
        enclosureWarnings.append(
          "enclosures unavailable: " + ((error as? any NewsError)?.message ?? "\(error)"))
      }
    }
    var result = FeedListResult(
      reports: reports, read: read.intersection(shown), unread: unread, cutByLimit: cut,
      warnings: warnings + filter.warnings + enclosureWarnings, marks: marks)
    if showIgnored {
      result.ignored = ignored.intersection(shown)
      result.showsIgnored = true
    }
    return result
  }

  /// Keeps what `result` showed as the last list (so `news show 3` counts in it) and stamps the
  /// read marks of the items still listed. A feed of which no source answered (every one failed)
  /// shows nothing: the last list stays what it was, for `news show 3`.
  @discardableResult
  public func keep(_ result: FeedListResult) throws -> String? {
    guard result.reports.contains(where: { $0.status != .failed }) else { return nil }
    let shown = result.reports.flatMap { $0.items.map(\.id) }
    var listing = Listing(
      key: SourceName.feed, provider: SourceName.feed, ids: shown, totalResults: shown.count,
      fetchedAt: context.now())
    // Carried along when small, so `news show 3` reads only this file; 10,000 items of 200 feeds
    // are found by id instead, rather than written out on every run.
    if shown.count <= Listing.maximumCarried {
      listing.articles = result.reports.flatMap { $0.items.map(\.article) }
    }
    let warning = try store.setLastListing(listing)
    try? store.noteListed(shown, marks: result.marks)
    return warning
  }
}
