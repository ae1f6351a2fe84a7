import Foundation
import NewsCore

/// What `news serve` serves, read from the store at once: the feeds, the saved searches (labels
/// too), and every article's head with its number, newest first (an article's text is read for
/// the page that shows it). Read again only when the store's articles change (``LibraryCache``).
struct ServedLibrary: Sendable {
  /// Every feed: the sources, the enabled providers, and any other source a stored article
  /// names (a source since removed, a page bookmarked by its URL).
  var feeds: [ServedFeed]
  /// The saved searches, by name: each a label holding what its query matches.
  var searches: [String: String]
  /// Every article, the last come first (then by number, greatest first).
  var items: [ServedItem]
  /// Each number's place in ``items``.
  var places: [Int64: Int]
  /// The places of ``items`` by number, smallest first (Fever's `since_id` and `max_id`).
  var ascending: [Int]

  /// Reads the library of `services`' store and configuration; the segments `kept` holds are
  /// not read again.
  static func load(_ services: NewsServices, kept: SegmentHeads? = nil) throws -> ServedLibrary {
    let store = try services.articleStore()
    let seen = try store.allArticleHeads(kept: kept)
    let ids = seen.map(\.head.id)
    let arrivals = try store.arrivals(of: ids)
    // When it came: first seen where that is kept (feeds' items), else last seen in an answer,
    // else its publication. The items are made once, in their order, from these keys (not
    // made, then made again in order: two lists of every item at once).
    let published = seen.map { $0.head.publishedAt?.timeIntervalSince1970 }
    let crawled = seen.indices.map { place in
      arrivals[ids[place]]?.timeIntervalSince1970 ?? seen[place].seenAt?.timeIntervalSince1970
        ?? published[place] ?? 0
    }
    // Numbers are given in the order the articles came, so that later ones have greater ones:
    // those without one are sorted (by their keys: places, not items, are moved).
    let number = try store.itemNumbers(for: ids, pruning: true) { unnumbered in
      unnumbered.sorted {
        crawled[$0] != crawled[$1] ? crawled[$0] < crawled[$1] : ids[$0] < ids[$1]
      }
    }
    // In the order a continuation reads (its time in microseconds, then its number).
    let microseconds = crawled.map(ServedItem.microseconds)
    let order = seen.indices.sorted {
      microseconds[$0] != microseconds[$1]
        ? microseconds[$0] > microseconds[$1] : number[$0] > number[$1]
    }
    let providers = Set(seen.map(\.head.provider))
    let items = order.map { place in
      ServedItem(
        number: number[place], head: seen[place].head, time: published[place] ?? crawled[place],
        crawled: crawled[place])
    }
    var places: [Int64: Int] = [:]
    places.reserveCapacity(items.count)
    for (place, item) in items.enumerated() { places[item.number] = place }
    let ascending = order.indices.sorted { number[order[$0]] < number[order[$1]] }

    var feeds: [ServedFeed] = []
    var searches: [String: String] = [:]
    for source in services.describedFeedSources() where source.enabled {
      if let search = source.search {
        searches[source.name] = search
      } else {
        feeds.append(
          ServedFeed(
            name: source.name, title: source.displayTitle,
            url: source.url.withoutPassword.absoluteString,
            labels: source.tags, site: source.site?.absoluteString))
      }
    }
    // A provider that cannot be asked (newsapi.org without its key) is no feed to the apps,
    // unless it stored articles before (listed below with the others).
    for provider in services.providers.providers
    where services.isEnabled(provider: provider.name)
      && provider.missingRequirement(in: services.configuration) == nil
    {
      feeds.append(
        ServedFeed(
          name: provider.name, title: provider.name, url: "news:" + provider.name, labels: []))
    }
    let named = Set(feeds.map(\.name))
    for other in providers.subtracting(named).sorted() {
      feeds.append(ServedFeed(name: other, title: other, url: "news:" + other, labels: []))
    }
    feeds.sort { $0.name < $1.name }
    return ServedLibrary(
      feeds: feeds, searches: searches, items: items, places: places, ascending: ascending)
  }

  /// The feed named `name`.
  func feed(named name: String) -> ServedFeed? { feeds.first { $0.name == name } }

  /// The item numbered `number`.
  func item(_ number: Int64) -> ServedItem? { places[number].map { items[$0] } }

  /// Every label: the feeds' tags and the saved searches, sorted.
  var labels: [String] {
    Set(feeds.flatMap(\.labels)).union(searches.keys).sorted()
  }
}
