import FeedParsing
import Foundation

extension NewsServices {
  /// Carries the state of newsboat's `cache.db` (``NewsboatImport/cache``): the articles it kept
  /// that are not here are kept as articles of their source (when their feed is one), then
  /// those it had read are marked read and those flagged bookmarked. Articles whose feed is no
  /// source are left out (counted).
  public func carryNewsboatState(_ plan: NewsboatImport) throws -> NewsboatCache.Outcome {
    guard let cache = plan.cache, !cache.items.isEmpty else { return NewsboatCache.Outcome() }
    let store = try articleStore()
    var outcome = NewsboatCache.Outcome()
    var articles: [String: Article] = [:]
    var fresh: [String: [Article]] = [:]
    var enclosures: [String: [Enclosure]] = [:]
    // Each article's id here: its link's, or the feed reader's for entries sharing a link or
    // having none (`nil`: an entry without a link whose feed is no source).
    let ids = cache.items.map { item in
      cache.id(
        of: item,
        source: URL.feed(item.feedURL).flatMap {
          plan.sourceByFeed[SubscriptionService.normalized($0)]
        })
    }
    let known = try store.articles(among: Set(ids.compactMap { $0 }))
    for (item, id) in zip(cache.items, ids) {
      let source = URL.feed(item.feedURL).flatMap {
        plan.sourceByFeed[SubscriptionService.normalized($0)]
      }
      guard let id else {
        outcome.leftOut += 1
        continue
      }
      if let stored = known[id] {
        articles[id] = stored
      } else if articles[id] == nil, let source {
        let article = cache.article(item, source: source)
        articles[article.id] = article
        fresh[source, default: []].append(article)
        if URL.web(item.enclosureURL) != nil {
          enclosures[article.id] = [
            Enclosure(
              url: item.enclosureURL, type: item.enclosureType.isEmpty ? nil : item.enclosureType)
          ]
        }
      } else if articles[id] == nil {
        outcome.leftOut += 1
      }
    }
    if !fresh.isEmpty {
      try store.keep(fresh.map { (articles: $0.value, provider: $0.key) })
      if !enclosures.isEmpty { try store.keepEnclosures(enclosures) }
      outcome.kept = fresh.values.reduce(0) { $0 + $1.count }
    }
    let lists = try lists()
    let read = zip(cache.items, ids).filter { !$0.0.unread }.compactMap(\.1)
      .filter { articles[$0] != nil }
    if !read.isEmpty {
      try lists.setRead(read, true)
      outcome.read = Set(read).count
    }
    var flagged: [Article] = []
    var seen = Set<String>()
    for (item, id) in zip(cache.items, ids) where !item.flags.isEmpty {
      if let id, let article = articles[id], seen.insert(id).inserted { flagged.append(article) }
    }
    if !flagged.isEmpty { outcome.bookmarked = try lists.bookmark(flagged).count }
    return outcome
  }
}
