import FeedParsing
import Foundation

/// A web page that has no feed, read by selectors (`"html"` in `config.json`,
/// ``PageSelectors``): an item per element `items` selects, keyed by its link. An item without a
/// date stays without one: it is dated when first seen, not anew at every fetch.
struct PageAdapter: FeedAdapter {
  var selectors: PageSelectors

  var format: String { "html" }

  func items(from data: Data, source: String) throws -> [FeedItem] {
    try decode(data, source: source, origin: FeedOrigin()).items
  }

  func decode(_ data: Data, source: String, origin: FeedOrigin) throws -> DecodedFeed {
    let page: (title: String?, entries: [PageSelectors.Entry])
    do {
      page = try selectors.read(data, origin: origin)
    } catch {
      throw FeedError.undecodable(source: source, detail: error.detail)
    }
    var decoded = Self.items(page.entries, source: source)
    decoded.title = page.title.map { TerminalSanitizer.clean($0) }.nonEmpty
    return decoded
  }

  /// The items of `entries` (one a link), and what was not read.
  static func items(_ entries: [PageSelectors.Entry], source: String) -> DecodedFeed {
    var notes: [String] = []
    let undated = entries.compactMap(\.unreadDate)
    if let first = undated.first {
      notes.append(
        "\(undated.count) date\(undated.count == 1 ? "" : "s") not read (the first: '"
          + TerminalSanitizer.clean(String(first.prefix(40)))
          + "'; the source's html.dateFormat gives the pattern)")
    }
    var seen = Set<String>()
    var items: [FeedItem] = []
    for entry in entries {
      let title = TerminalSanitizer.clean(entry.title)
      var item = FeedItem(
        feed: source, plainTitle: title,
        description: entry.summary.map { SyndicationAdapter.excerpt($0) }, imageURL: nil,
        url: entry.link)
      // The same link twice on a page (a teaser and its heading) is one item.
      guard seen.insert(item.id).inserted else { continue }
      item.content = entry.content
      item.publishedAt = entry.date
      items.append(item)
    }
    return DecodedFeed(items: items, notes: notes)
  }
}
