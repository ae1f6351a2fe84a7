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
    let entries: [SyndicationEntry]
    if Self.looksLikeJSON(data) {
      do {
        let feed = try JSONDecoder().decode(JSONFeed.self, from: data)
        guard feed.version.hasPrefix("https://jsonfeed.org/version/") else {
          throw FeedError.undecodable(source: source, detail: "not a JSON Feed (version)")
        }
        entries = feed.items.elements.map(\.entry)
      } catch let error as FeedError {
        throw error
      } catch {
        throw FeedError.undecodable(
          source: source, detail: "not a JSON Feed: " + DecodingErrorDescription.describe(error))
      }
    } else {
      do {
        entries = try XMLFeedParser.entries(in: data)
      } catch {
        throw FeedError.undecodable(source: source, detail: error.detail)
      }
    }
    return entries.compactMap { item(from: $0, source: source) }
  }

  private func item(from entry: SyndicationEntry, source: String) -> FeedItem? {
    let text = (entry.summary ?? entry.content).map(HTMLText.plain).nonEmpty
    let title = entry.title.map(HTMLText.plain).nonEmpty ?? text.map(Self.firstWords)
    guard let title, entry.link != nil || text != nil else { return nil }
    var item = FeedItem(source: source, title: title, subtitle: text, imageURL: entry.imageURL)
    item.url = entry.link
    item.author = entry.author
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
