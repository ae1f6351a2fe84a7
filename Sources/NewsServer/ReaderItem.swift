import FeedParsing
import NewsCore

/// An item as the Google Reader API writes it (FreshRSS's and Miniflux's shape): its long id,
/// times, title, links (`canonical` and `alternate`), states and labels as `categories`, its
/// feed as `origin`, its text as `summary`, its files (a podcast's episode) as `enclosure`.
enum ReaderItem {
  static func json(_ item: ServedItem, _ served: ServedRequest, enclosures: [Enclosure] = [])
    -> JSONValue
  {
    let article = item.article
    var categories = [ReaderStream.readingList.id]
    if served.marks.isRead(item) { categories.append(ReaderStream.read.id) }
    if served.marks.isStarred(item) { categories.append(ReaderStream.starred.id) }
    let feed = served.library.feed(named: item.feed)
    categories += (feed?.labels ?? []).map { ReaderStream.label($0).id }
    let seconds = Int(item.time)
    let links: JSONValue =
      article.url.map { .array([.object([("href", .string($0))])]) } ?? .array([])
    let alternate: JSONValue =
      article.url.map {
        .array([.object([("href", .string($0)), ("type", .string("text/html"))])])
      } ?? .array([])
    var members: [(String, JSONValue)] = [
      ("id", .string(item.longID)),
      ("crawlTimeMsec", .string(String(item.microseconds / 1_000))),
      ("timestampUsec", .string(String(item.microseconds))),
      ("published", .int(seconds)), ("updated", .int(seconds)),
      ("title", .string(article.title)),
      ("author", .string(article.author ?? "")),
      ("canonical", links), ("alternate", alternate),
      ("categories", .array(categories.map(JSONValue.string))),
      (
        "origin",
        .object([
          ("streamId", .string("feed/" + item.feed)), ("title", .string(feed?.title ?? item.feed)),
          ("htmlUrl", .string(feed?.url ?? "")),
        ])
      ),
      (
        "summary",
        .object([
          ("direction", .string("ltr")),
          ("content", .string(html(article))),
        ])
      ),
    ]
    if !enclosures.isEmpty {
      // As FreshRSS writes them: `href`, `type`, and `length` when known.
      members.append(
        (
          "enclosure",
          .array(
            enclosures.map { enclosure in
              var file: [(String, JSONValue)] = [
                ("href", .string(enclosure.url)), ("type", .string(enclosure.type ?? "")),
              ]
              if let length = enclosure.length { file.append(("length", .int(length))) }
              return .object(file)
            })
        ))
    }
    return .object(members)
  }

  /// The article's text as the apps show it, HTML: the store keeps text (a feed's HTML made
  /// text), so each paragraph is one `<p>`, its characters escaped (a `<` in the text is shown,
  /// never read as markup).
  static func html(_ article: Article) -> String {
    let text = article.content ?? article.description ?? ""
    return text.components(separatedBy: "\n\n")
      .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
      .filter { !$0.isEmpty }
      .map {
        "<p>"
          + XMLEscaping.escaped($0, quotes: false).replacingOccurrences(of: "\n", with: "<br>")
          + "</p>"
      }
      .joined()
  }
}
