import FeedParsing
import Foundation

extension ListService {
  /// The feed as `news feed` shows it, from the sources' `reports`: one link one item
  /// (``FeedLinkMerge``), read state, unread counts, then only unread items with `unreadOnly`,
  /// then at most `limit` items across sources. Marks that cannot be read are a warning. The
  /// items the killfile matches (``IgnoreRule``) are left out and not counted; with
  /// `showIgnored` they are shown, and named in ``FeedListResult/ignored``.
  ///
  /// The reports are taken, not copied, and their items packed (as a fetch with `packingItems`
  /// hands them over): every step reads ids, but the killfile, which decodes a source at a time.
  public func feed(
    _ reports: consuming [FeedSourceReport], unreadOnly: Bool, limit: Int?,
    showIgnored: Bool = false, where query: ArticleQuery? = nil
  ) -> FeedListResult {
    var reports = consume reports
    var packs: [FeedItemPack] = []
    packs.reserveCapacity(reports.count)
    for index in reports.indices {
      packs.append(reports[index].pack ?? FeedItemPack(reports[index].items))
      reports[index].pack = nil
      reports[index].items = []
    }
    let alsoIn = FeedLinkMerge.merge(&packs, names: reports.map(\.name))
    // How many of each source's items are listed under a source before it.
    var listedAbove: [String: Int] = [:]
    for names in alsoIn.values {
      for name in names { listedAbove[name, default: 0] += 1 }
    }
    var ignored: Set<String> = []
    var ignoredCounts: [String: Int] = [:]
    var filter = IgnoreFilter(ignoreRules, facts: ignoreFacts(), timeZone: context.timeZone)
    if !filter.isEmpty {
      for index in packs.indices {
        let before = ignored.count
        for item in packs[index].items where filter.ignores(item.article) {
          ignored.insert(item.id)
        }
        if !showIgnored, ignored.count > before {
          packs[index].filter { !ignored.contains($0) }
          ignoredCounts[reports[index].name, default: 0] += ignored.count - before
        }
      }
    }
    let ids = packs.flatMap(\.ids)
    let (marks, warnings) = readMarksOrWarning(of: ids)
    let read = marks.marked(ids)
    var unread: [String: Int] = [:]
    for (report, pack) in zip(reports, packs) {
      unread[report.name] =
        pack.ids.lazy.filter { !read.contains($0) && !ignored.contains($0) }.count
    }
    if unreadOnly {
      for index in packs.indices { packs[index].filter { !read.contains($0) } }
    }
    // `--where`: only the items the query matches (the unread counts stay the sources').
    var queryWarnings: [String] = []
    if let query {
      var facts: QueryFacts
      do {
        facts = try self.facts(for: query, except: .readMarks)
      } catch {
        facts = QueryFacts(now: context.now())
        queryWarnings.append(
          "part of what --where asks is unavailable: "
            + ((error as? any NewsError)?.message ?? "\(error)"))
      }
      facts.readMarks = marks
      var matcher = QueryMatcher(query, facts: facts)
      for index in packs.indices {
        var kept = Set<String>()
        for item in packs[index].items where matcher.matches(item.article) { kept.insert(item.id) }
        packs[index].filter { kept.contains($0) }
      }
      queryWarnings += matcher.warnings
    }
    var cut: Set<String> = []
    if let limit {
      var left = limit
      for index in packs.indices {
        if packs[index].count > left {
          packs[index].prefix(left)
          cut.insert(reports[index].name)
        }
        left -= packs[index].count
      }
    }
    // Sized once: 200,000 ids of 10,000 sources, grown one doubling at a time, were each hashed
    // again at every doubling.
    var shown = Set<String>(minimumCapacity: packs.reduce(0) { $0 + $1.count })
    for pack in packs { shown.formUnion(pack.ids) }
    // Enclosures come with a fetch; items answered from the cache have them from the store.
    var enclosures: [String: [Enclosure]] = [:]
    var enclosureWarnings: [String] = []
    let lacking = packs.flatMap(\.idsWithoutEnclosures)
    if !lacking.isEmpty {
      do {
        enclosures = try store.enclosures(among: lacking)
      } catch {
        enclosureWarnings.append(
          "enclosures unavailable: " + ((error as? any NewsError)?.message ?? "\(error)"))
      }
    }
    var result = FeedListResult(
      sourceReports: reports, packs: packs, alsoIn: alsoIn.filter { shown.contains($0.key) },
      enclosures: enclosures, read: read.intersection(shown), unread: unread, cutByLimit: cut,
      warnings: warnings + filter.warnings + enclosureWarnings + queryWarnings, marks: marks)
    if showIgnored {
      result.ignored = ignored.intersection(shown)
      result.showsIgnored = true
    }
    result.ignoredCounts = ignoredCounts
    result.listedAbove = listedAbove
    return result
  }

  /// Keeps what `result` showed as the last list (so `news show 3` counts in it) and stamps the
  /// read marks of the items still listed. A feed of which no source answered (every one failed)
  /// shows nothing: the last list stays what it was, for `news show 3`.
  @discardableResult
  public func keep(_ result: FeedListResult) throws -> String? {
    guard result.sourceReports.contains(where: { $0.status != .failed }) else { return nil }
    let shown = result.ids
    var listing = Listing(
      key: SourceName.feed, provider: SourceName.feed, ids: shown, totalResults: shown.count,
      fetchedAt: context.now())
    // Carried along when small, so `news show 3` reads only this file; 10,000 items of 200 feeds
    // are found by id instead, rather than written out on every run.
    if shown.count <= Listing.maximumCarried { listing.articles = result.items.map(\.article) }
    let warnings = [try store.setLastListing(listing), noteListed(shown, marks: result.marks)]
      .compactMap { $0 }
    return warnings.isEmpty ? nil : warnings.joined(separator: "; ")
  }
}
