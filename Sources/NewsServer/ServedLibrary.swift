import Foundation
import NewsCore

/// What `news serve` serves, read from the store at once: the feeds, the saved searches (labels
/// too), and every article with its number, newest first. Read again only when the store's
/// articles change (``LibraryCache``).
struct ServedLibrary: Sendable {
  /// Every feed: the sources, the enabled providers, and any other source a stored article
  /// names (a source since removed, a page bookmarked by its URL).
  var feeds: [ServedFeed]
  /// The saved searches, by name: each a label holding what its query matches.
  var searches: [String: String]
  /// Every article, newest first (then by number, greatest first).
  var items: [ServedItem]
  /// Each number's place in ``items``.
  var places: [Int64: Int]
  /// The places of ``items`` by number, smallest first (Fever's `since_id` and `max_id`).
  var ascending: [Int]

  /// Reads the library of `services`' store and configuration.
  static func load(_ services: NewsServices) throws -> ServedLibrary {
    let store = try services.articleStore()
    let articles = try store.allArticles()
    // Numbers are given oldest first, so that later articles have greater ones.
    let oldestFirst = articles.sorted {
      let (left, right) = (time($0), time($1))
      return left != right ? left < right : $0.id < $1.id
    }
    let numbers = try store.itemNumbers(for: oldestFirst.map(\.id), pruning: true)
    var items = oldestFirst.map { article in
      ServedItem(number: numbers[article.id] ?? 0, article: article, time: time(article))
    }
    items.sort { $0.time != $1.time ? $0.time > $1.time : $0.number > $1.number }
    var places: [Int64: Int] = [:]
    places.reserveCapacity(items.count)
    for (place, item) in items.enumerated() { places[item.number] = place }
    let ascending = items.indices.sorted { items[$0].number < items[$1].number }

    var feeds: [ServedFeed] = []
    var searches: [String: String] = [:]
    for source in services.feedSources() where source.enabled {
      if let search = source.search {
        searches[source.name] = search
      } else {
        feeds.append(
          ServedFeed(name: source.name, url: source.url.absoluteString, labels: source.tags))
      }
    }
    for provider in services.providers.names where services.isEnabled(provider: provider) {
      feeds.append(ServedFeed(name: provider, url: "news:" + provider, labels: []))
    }
    let named = Set(feeds.map(\.name))
    for other in Set(articles.map(\.provider)).subtracting(named).sorted() {
      feeds.append(ServedFeed(name: other, url: "news:" + other, labels: []))
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

  private static func time(_ article: Article) -> Double {
    article.publishedAt?.timeIntervalSince1970 ?? 0
  }
}
