import Foundation

/// The web's feeds: RSS 0.91/0.92/2.0, RSS 1.0 (RDF), Atom 1.0 and JSON Feed 1.0/1.1, the format
/// detected from the body (the XML root element, JSON Feed's `version`), not from `Content-Type`.
///
/// Titles and summaries are cleaned of HTML; an item without a title gets one from its text (its
/// first words, as newsboat does); an item with neither a link nor any text is left out.
struct SyndicationAdapter: FeedAdapter {
  /// The formats a source may declare (`format` in `config.json`); all are detected anyway.
  static let formats = ["rss", "atom", "jsonfeed"]

  /// The format `config.json` declared, if it did.
  var declared: String?

  /// The declared format, or `detected`.
  var format: String { declared ?? "detected" }

  func items(from data: Data, source: String) throws -> [FeedItem] {
    try document(from: data, source: source).items
  }

  func decode(_ data: Data, source: String) throws -> (items: [FeedItem], skipped: Int) {
    let document = try document(from: data, source: source)
    return (document.items, document.skipped)
  }

  /// The feed's own title (cleaned of HTML), its items, and how many entries had neither a link
  /// nor any text and were left out.
  func document(from data: Data, source: String) throws -> (
    title: String?, items: [FeedItem], skipped: Int
  ) {
    let entries: [SyndicationEntry]
    let title: String?
    if Self.looksLikeJSON(data) {
      do {
        let feed = try JSONDecoder().decode(JSONFeed.self, from: data)
        guard feed.version.hasPrefix("https://jsonfeed.org/version/") else {
          throw FeedError.undecodable(source: source, detail: "not a JSON Feed (version)")
        }
        entries = feed.items.elements.map(\.entry)
        title = feed.title
      } catch let error as FeedError {
        throw error
      } catch {
        throw FeedError.undecodable(
          source: source, detail: "not a JSON Feed: " + DecodingErrorDescription.describe(error))
      }
    } else {
      do {
        (title, entries) = try XMLFeedParser.document(in: data)
      } catch {
        throw FeedError.undecodable(source: source, detail: error.detail)
      }
    }
    // Entries sharing a link keep their own ids (the first has the link's): none is lost.
    var seen = Set<String>()
    var items = entries.compactMap { item(from: $0, source: source) }
    for index in items.indices where !seen.insert(items[index].id).inserted {
      items[index].id =
        source + "-" + StableHash.hex(items[index].title, items[index].url ?? "", length: 6)
      seen.insert(items[index].id)
    }
    return (title.map(HTMLText.plain).nonEmpty, items, entries.count - items.count)
  }

  private func item(from entry: SyndicationEntry, source: String) -> FeedItem? {
    let text = (entry.summary ?? entry.content).map(HTMLText.plain).nonEmpty
    let title = entry.title.map(HTMLText.plain).nonEmpty ?? text.map(Self.firstWords)
    guard let title, entry.link != nil || text != nil else { return nil }
    var item = FeedItem(
      source: source, title: title, subtitle: text, imageURL: entry.imageURL, url: entry.link)
    item.author = entry.author.map(HTMLText.plain).nonEmpty
    if let content = entry.content.map(HTMLText.plain).nonEmpty, content != text {
      item.content = content
    }
    item.publishedAt = entry.published.flatMap(FeedDate.parse)
    return item
  }

  /// At most the first ten words of `text`, with `…` when there were more.
  private static func firstWords(_ text: String) -> String {
    let words = text.split(whereSeparator: \.isWhitespace)
    return words.prefix(10).joined(separator: " ") + (words.count > 10 ? "…" : "")
  }

  private static func looksLikeJSON(_ data: Data) -> Bool {
    data.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF) }
      == UInt8(ascii: "{")
  }
}
