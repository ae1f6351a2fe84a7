import FeedParsing
import Foundation

/// The web's feeds: RSS 0.9x/2.0, RSS 1.0 (RDF), Atom 1.0 and 0.3 and JSON Feed 1.0/1.1, the
/// format detected from the body (JSON Feed's `version`, else XML read by
/// ``FeedDocumentParser``), not from `Content-Type`.
///
/// Every entry with anything in it is kept: one without a title gets its text's first words (or
/// its link) as title; one without a link gets an id from its `guid`/`id`, else from its title.
/// Only an entry with nothing in it at all is left out, and a note says so.
struct SyndicationAdapter: FeedAdapter {
  /// The formats a source may declare (`format` in `config.json`); all are detected anyway.
  static let formats = ["rss", "atom", "jsonfeed"]

  /// The `Accept` header of a web feed's request: the feed types first, then anything (a server
  /// that sends a feed as `text/html` is read all the same).
  static let accept =
    "application/rss+xml, application/atom+xml, application/feed+json, application/rdf+xml, "
    + "application/xml;q=0.9, text/xml;q=0.9, application/json;q=0.8, */*;q=0.5"

  /// What an entry with no title, text or link is called.
  static let untitled = "(untitled)"

  /// The format `config.json` declared, if it did.
  var declared: String?

  /// The declared format, or `detected`.
  var format: String { declared ?? "detected" }

  func items(from data: Data, source: String) throws -> [FeedItem] {
    try read(data, source: source, origin: FeedOrigin()).items
  }

  func decode(_ data: Data, source: String, origin: FeedOrigin) throws -> DecodedFeed {
    try read(data, source: source, origin: origin)
  }

  /// The feed's items, what was left out (one line each), how long it says it stays the same,
  /// its own title and its site.
  func read(_ data: Data, source: String, origin: FeedOrigin) throws -> DecodedFeed {
    let document: FeedDocument
    do {
      document =
        Self.looksLikeJSON(data)
        ? try JSONFeed.document(from: data, base: origin.url)
        : try FeedDocumentParser.parse(data, origin: origin)
    } catch {
      throw FeedError.undecodable(source: source, detail: error.detail)
    }
    var notes = document.notes
    let kept = document.entries.filter(\.isKept).map(\.sanitized)
    if kept.count < document.entries.count {
      let empty = document.entries.count - kept.count
      notes.append(
        "\(empty) empty item\(empty == 1 ? "" : "s") (nothing but an id, or nothing at all) left out"
      )
    }
    var items = kept.map { item(from: $0, source: source) }
    // Entries sharing a link (a status feed whose every item links to its home page) are each
    // their own item: none takes the link's id, which the newest would have, and a new entry on
    // top would then take, with the read state of the one before. Each is named by the link
    // and its guid (else its title), which stay as entries come and go.
    var links: [String: Int] = [:]
    for item in items where item.url != nil { links[item.id, default: 0] += 1 }
    for index in items.indices where (links[items[index].id] ?? 0) > 1 {
      let item = items[index]
      items[index].id = Self.sharedLinkID(
        source: source, url: item.url ?? "", own: kept[index].guid ?? item.title)
    }
    // Entries sharing an id still keep ids of their own (the first has the shared one): none
    // is lost.
    var seen = Set<String>()
    for index in items.indices where !seen.insert(items[index].id).inserted {
      let item = items[index]
      var attempt = 0
      repeat {
        attempt += 1
        items[index].id =
          source + "-"
          + StableHash.hex(
            item.title, item.url ?? "", kept[index].guid ?? "", "\(attempt)", length: 8)
      } while !seen.insert(items[index].id).inserted
    }
    return DecodedFeed(
      items: items, notes: notes, refreshHint: document.refreshHint,
      title: document.title.map { TerminalSanitizer.clean($0) }.nonEmpty, site: document.site)
  }

  /// The id of an entry of `source` whose link `url` another entry of the feed has too: the link
  /// and the entry's `own` name (its guid, else its title) hashed. (`news import newsboat` names
  /// newsboat's articles so, to meet the same entries.)
  static func sharedLinkID(source: String, url: String, own: String) -> String {
    source + "-" + StableHash.hex(url, own, length: 10)
  }

  private func item(from entry: SyndicationEntry, source: String) -> FeedItem {
    // Without a summary, the description is the content's first paragraph (at most 300
    // characters), not the whole content again: lists show it, the article shows the content.
    let text = entry.summary ?? entry.content.map { Self.excerpt($0) }
    let title = entry.title ?? text.map(Self.firstWords) ?? entry.link ?? Self.untitled
    var item = FeedItem(
      feed: source, plainTitle: title, description: text, imageURL: entry.imageURL, url: entry.link)
    if entry.link == nil, let guid = entry.guid {
      // No link: the feed's own name for the entry is the stable part.
      item.id = source + "-" + StableHash.hex(guid, length: 10)
    }
    item.author = entry.author
    if let body = entry.body ?? entry.content, body != text { item.content = body }
    item.publishedAt = entry.dates.lazy.compactMap(FeedDate.parse).first
    item.enclosures = entry.enclosures
    item.categories = entry.categories
    return item
  }

  /// The first paragraph of `text`, cut at a word to at most 300 characters (`…` then).
  static func excerpt(_ text: String) -> String {
    let first = text.components(separatedBy: "\n\n").first { !$0.isEmpty } ?? text
    let flat = first.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    guard flat.count > 300 else { return flat }
    let cut = flat.prefix(300)
    let atWord = cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut
    return atWord + "…"
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
